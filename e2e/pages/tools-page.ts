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

  /** Ticks (or unticks) a row's checkbox; with `shift`, the rows between it and the last one clicked too. */
  async select(name: string, shift = false) {
    await this.page.getByTestId(`select-${name}`).click({ modifiers: shift ? ["Shift"] : [] });
  }

  selectBox(name: string) {
    return this.page.getByTestId(`select-${name}`);
  }

  /** The bar above the table while tools are selected. */
  bulkBar() {
    return this.page.getByTestId("bulk-bar");
  }

  /** "3 selected", "All 150 tools matching selected". */
  selectedCount() {
    return this.page.getByTestId("bulk-count");
  }

  async selectAllMatching() {
    await this.page.getByTestId("select-all-matching").click();
  }

  async bulk(action: "enable" | "disable") {
    await this.page.getByTestId(`bulk-${action}`).click();
  }

  /** Opens the bulk Tags, Delete or Move-or-copy dialog. */
  async openBulkDialog(which: "tags" | "delete" | "move") {
    await this.page.getByTestId(`bulk-${which}`).click();
    await expect(this.bulkDialog(which)).toBeVisible();
  }

  bulkDialog(which: "tags" | "delete" | "move") {
    return this.page.getByTestId(`bulk-${which}-dialog`);
  }

  async confirmBulkDialog(which: "tags" | "delete" | "move") {
    await this.page.getByTestId(`bulk-${which}-confirm`).click();
  }

  /** The toast that says what a bulk change did. */
  toast(text: string | RegExp) {
    return this.page.locator("[data-sonner-toast]").filter({ hasText: text });
  }

  /** Sorts by a column: its header on a wide screen, the "Sort by" picker where the headers are hidden (a phone). */
  async sortBy(column: string, value: string) {
    const header = this.page.getByTestId(`sort-${column}`);
    if (await header.isVisible()) await header.click();
    else await this.page.getByTestId("tool-sort").selectOption(value);
  }

  /** The names of the rows rendered, top to bottom. */
  async renderedNames(): Promise<string[]> {
    return this.rows().evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.testid!.replace(/^tool-row-/, "")));
  }
}
