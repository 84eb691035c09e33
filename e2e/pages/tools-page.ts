import { expect, type Page } from "@playwright/test";

export class ToolsPage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  async goto(query = "") {
    await this.page.goto(`/catalogs/${this.catalogId}/tools${query}`);
    await expect(this.page.getByTestId("tool-count")).toBeVisible();
  }

  async search(text: string) {
    await this.page.getByTestId("tool-search").fill(text);
  }

  async filterBySource(source: string) {
    await this.page.getByTestId("source-filter").selectOption(source);
  }

  row(name: string) {
    return this.page.getByTestId(`tool-row-${name}`);
  }

  rows() {
    return this.page.locator("[data-testid^=tool-row-]");
  }

  async toggle(name: string) {
    await this.page.getByTestId(`toggle-${name}`).first().click();
  }
}
