import { expect, type Page } from "@playwright/test";

/** The Tools page's description quality report. */
export class QualityPanel {
  constructor(private readonly page: Page) {}

  panel() {
    return this.page.getByTestId("quality-panel");
  }

  async open() {
    await this.panel().locator("summary").first().click();
    await expect(this.page.getByTestId("quality-summary")).toBeVisible();
  }

  section(kind: string) {
    return this.page.getByTestId(`quality-${kind}`);
  }

  /** The `index`th group of findings of a kind: one fix line, its tools collapsed under it. */
  group(kind: string, index = 0) {
    return this.page.getByTestId(`quality-group-${kind}-${index}`);
  }

  fix(kind: string, index = 0) {
    return this.page.getByTestId(`quality-group-${kind}-${index}-fix`);
  }

  /** Expands a group's list of tools. */
  async expand(kind: string, index = 0) {
    await this.page.getByTestId(`quality-group-${kind}-${index}-tools`).locator("summary").click();
  }

  finding(kind: string, tools: string[]) {
    return this.page.getByTestId(`finding-${kind}-${tools.join("-")}`);
  }
}
