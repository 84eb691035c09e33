import { expect, type Page } from "@playwright/test";

export class SimulatorPage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  async goto(query: string) {
    await this.page.goto(`/catalogs/${this.catalogId}/simulator?${query}`);
    await expect(this.column("a").getByTestId("final-count")).toBeVisible();
  }

  column(which: "a" | "b") {
    return this.page.getByTestId(`sim-${which}`);
  }

  finalTool(which: "a" | "b", name: string) {
    return this.column(which).getByTestId(`final-${name}`);
  }

  /** What one stage of the pipeline changed of one tool, a note per change (`~tool reason`). */
  changedAt(which: "a" | "b", stage: string, tool: string) {
    return this.column(which)
      .getByTestId(`stage-${stage}`)
      .getByTestId("trace-changed")
      .filter({ hasText: `~${tool} ` });
  }

  async setModel(which: "a" | "b", model: string) {
    const input = this.column(which).getByTestId("model-input");
    await input.fill(model);
    await input.press("Enter");
  }

  async whyMissing(which: "a" | "b", name: string) {
    await this.column(which).getByTestId("why-input").fill(name);
    return this.column(which).getByTestId("why-answer");
  }
}
