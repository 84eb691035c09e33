import { expect, type Page } from "@playwright/test";
import { AppShell } from "./app-shell";

/** What one override sets, as its card's fields take it; a hint left out stays its source's. */
interface OverrideInput {
  tool: string;
  /** The parameter defaults as typed: a JSON object (or anything else, to see it refused). */
  defaults?: string;
  title?: string;
  hints?: Partial<Record<"readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint", "true" | "false">>;
}

/** The Rules page's definition overrides: a card per override, and one Save for them all. */
export class OverridesForm {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  /** Opens the Rules page and waits until React has hydrated the form (typing before that can be lost). */
  async goto() {
    await this.page.goto(`/catalogs/${this.catalogId}/rules`);
    await expect(this.section()).toBeVisible();
    await new AppShell(this.page).hydrated(this.page.getByTestId("save-overrides"));
  }

  section() {
    return this.page.getByTestId("overrides");
  }

  card(index: number) {
    return this.page.getByTestId(`override-${index}`);
  }

  defaults(index: number) {
    return this.card(index).getByLabel("Parameter defaults");
  }

  /** The problems of one override, as the form shows them under its card. */
  problems(index: number) {
    return this.page.getByTestId(`override-errors-${index}`);
  }

  /** Adds an empty override at the end and returns its index. */
  async add() {
    const cards = this.section().locator(".card");
    const index = await cards.count();
    await this.page.getByTestId("add-override").click();
    await expect(this.card(index)).toBeVisible();
    return index;
  }

  async fill(index: number, input: OverrideInput) {
    const card = this.card(index);
    await card.getByLabel("Tool").fill(input.tool);
    if (input.defaults !== undefined) await this.defaults(index).fill(input.defaults);
    if (input.title !== undefined) await card.getByLabel("Title").fill(input.title);
    for (const [hint, value] of Object.entries(input.hints ?? {})) await card.getByLabel(hint).selectOption(value);
  }

  async save() {
    await this.page.getByTestId("save-overrides").click();
  }
}
