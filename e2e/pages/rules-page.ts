import { expect, type Page } from "@playwright/test";
import { AppShell } from "./app-shell";

type RuleField = "Include models" | "Exclude models" | "Enable tools" | "Disable tools";

export class RulesPage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  /** Opens the page and waits until React has hydrated the model rules (typing before that can be lost). */
  async goto() {
    await this.page.goto(`/catalogs/${this.catalogId}/rules`);
    await expect(this.rule(0)).toBeVisible();
    await new AppShell(this.page).hydrated(this.page.getByTestId("probe-model"));
  }

  rule(index: number) {
    return this.page.getByTestId(`model-rule-${index}`);
  }

  field(index: number, field: RuleField) {
    return this.rule(index).getByLabel(field);
  }

  /** The message told as one types a tool name the catalog lacks (`position` in the field's list). */
  unknownTool(index: number, field: "enable" | "disable", position: number) {
    return this.page.getByTestId(`rule-unknown-${index}-${field}-${position}`);
  }

  async tryModel(model: string) {
    await this.page.getByTestId("probe-model").fill(model);
  }

  async preview(agent: string) {
    await this.page.getByTestId("rules-preview-agent").selectOption(agent);
    await this.page.getByTestId("rules-preview-run").click();
    await expect(this.page.getByTestId("rules-preview-result")).toBeVisible();
  }

  previewResult() {
    return this.page.getByTestId("rules-preview-result");
  }

  async save() {
    await this.page.getByTestId("save-model-rules").click();
  }

  saveError() {
    return this.page.getByTestId("save-error");
  }
}
