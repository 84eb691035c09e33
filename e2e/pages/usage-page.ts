import { expect, type Page } from "@playwright/test";

export class UsagePage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  async goto() {
    await this.page.goto(`/catalogs/${this.catalogId}/usage`);
    await expect(this.page.getByTestId("usage-window")).toBeVisible();
  }

  async chooseWindow(window: "1h" | "24h" | "7d" | "30d") {
    await this.page.getByTestId(`usage-window-${window}`).click();
    await expect(this.page).toHaveURL(new RegExp(`window=${window}`));
  }

  toolRows() {
    return this.page.getByTestId("usage-tools-row");
  }

  toolRow(name: string) {
    return this.toolRows().filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  async sortTools(column: string) {
    await this.page.getByTestId(`usage-tools-sort-${column}`).click();
  }

  sortedHeader() {
    return this.page.getByTestId("usage-tools").locator("th[aria-sort]");
  }

  neverCalled() {
    return this.page.getByTestId("never-called");
  }

  learningStatus() {
    return this.page.getByTestId("learning-status");
  }

  async toggleLearning() {
    await this.page.getByTestId("learning-switch").click();
  }

  async forgetLearned() {
    await this.page.getByTestId("learning-reset").click();
    await this.page.getByTestId("learning-reset-confirm").click();
  }
}
