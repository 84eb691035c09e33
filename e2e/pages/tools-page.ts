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

  searchBox() {
    return this.page.getByTestId("tool-search");
  }

  async search(text: string) {
    await this.searchBox().fill(text);
  }

  /** Types the search key by key, as a person does (each keystroke its own event). */
  async typeSearch(text: string, delay = 0) {
    await this.searchBox().pressSequentially(text, { delay });
  }

  async filterBySource(source: string) {
    await this.page.getByTestId("source-filter").selectOption(source);
  }

  /** "Showing N of M tools". */
  count() {
    return this.page.getByTestId("tool-count");
  }

  row(name: string) {
    return this.page.getByTestId(`tool-row-${name}`);
  }

  rows() {
    return this.page.locator("[data-testid^=tool-row-]");
  }

  /** Scrolls the table's own scroll area to its end (the next page loads from there). */
  async scrollToEnd() {
    await this.page.getByTestId("tool-scroller").evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  }

  async scrollToTop() {
    await this.page.getByTestId("tool-scroller").evaluate((element) => element.scrollTo({ top: 0 }));
  }

  /** The position in the whole list of the last row rendered (rows are virtualised: -1 when none). */
  async lastRenderedIndex(): Promise<number> {
    return this.rows().evaluateAll((rows) => Math.max(-1, ...rows.map((row) => Number((row as HTMLElement).dataset.index))));
  }

  async open(name: string) {
    await this.row(name).getByRole("link", { name }).click();
    await expect(this.page.getByTestId("tool-name")).toHaveText(name);
  }

  async toggle(name: string) {
    await this.page.getByTestId(`toggle-${name}`).first().click();
  }
}
