import { expect, type Page } from "@playwright/test";

export class DecisionsPage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  async goto(query = "") {
    await this.page.goto(`/catalogs/${this.catalogId}/decisions${query}`);
    await expect(this.page.getByTestId("decision-filters")).toBeVisible();
  }

  async filterByKind(kind: "" | "preselect" | "tool-search") {
    await this.page.getByTestId("filter-kind").selectOption(kind);
  }

  /** What a listed decision was asked: its query, last user message or called tool. */
  asked(decisionId: string) {
    return this.row(decisionId).getByTestId("decision-asked");
  }

  async filterByAsked(text: string) {
    await this.page.getByTestId("filter-asked").fill(text);
  }

  async filterBySelector(selector: string) {
    await this.page.getByTestId("filter-selector").selectOption(selector);
  }

  async filterByOutcome(outcome: "" | "chosen" | "none" | "refused" | "error") {
    await this.page.getByTestId("filter-outcome").selectOption(outcome);
  }

  replayPanel() {
    return this.page.getByTestId("replay-panel");
  }

  row(decisionId: string) {
    return this.page.getByTestId(`decision-row-${decisionId}`);
  }

  rows() {
    return this.page.locator("[data-testid^=decision-row-]");
  }

  empty() {
    return this.page.getByTestId("decisions-empty");
  }

  async open(decisionId: string) {
    await this.page.getByTestId(`open-decision-${decisionId}`).click();
    await expect(this.page.getByTestId("decision-detail")).toBeVisible();
  }

  detail() {
    return this.page.getByTestId("decision-detail");
  }

  async replay(selector?: string) {
    if (selector) await this.page.getByTestId("replay-selector").selectOption(selector);
    await this.page.getByTestId("replay-button").click();
    await expect(this.page.getByTestId("replay-result")).toBeVisible();
  }

  removed(name: string) {
    return this.page.getByTestId(`diff-removed-${name}`);
  }

  added(name: string) {
    return this.page.getByTestId(`diff-added-${name}`);
  }

  newlyRejected(name: string) {
    return this.page.getByTestId(`diff-rejected-${name}`);
  }

  catalogChange(subject: string) {
    return this.page.getByTestId("catalog-changes").getByTestId(`catalog-change-${subject}`);
  }
}
