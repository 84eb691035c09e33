import { expect, type Page } from "@playwright/test";
import { AppShell } from "./app-shell";

export class EvaluatePage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  async goto() {
    await this.page.goto(`/catalogs/${this.catalogId}/evaluate`);
    await expect(this.page.getByTestId("run-evaluation")).toBeVisible();
  }

  /** Waits until React has hydrated the form: typing before that can be lost. */
  async hydrated() {
    await new AppShell(this.page).hydrated(this.page.getByTestId("set-name"));
  }

  /** Imports a labelled set in the bench/data format, as a file named `name`. */
  async importSet(name: string, set: unknown) {
    await this.page.getByTestId("import-cases").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(set)) });
  }

  unknownTools() {
    return this.page.getByTestId("unknown-tools");
  }

  async leaveOutUnknown() {
    await this.page.getByTestId("leave-out-unknown").click();
    await expect(this.unknownTools()).toHaveCount(0);
  }

  /** Writes case `index` (0-based) by hand, adding its row when it is not there yet. */
  async writeCase(index: number, query: string, expected: string[]) {
    const request = this.page.getByLabel(`Request of case ${index + 1}`, { exact: true });
    if ((await request.count()) === 0) await this.page.getByTestId("add-case").click();
    await request.fill(query);
    await this.page.getByLabel(`Expected tools of case ${index + 1}`, { exact: true }).fill(expected.join(", "));
  }

  caseField(index: number, field: "Request" | "Expected tools") {
    return this.page.getByLabel(`${field} of case ${index + 1}`, { exact: true });
  }

  setName() {
    return this.page.getByTestId("set-name");
  }

  result() {
    return this.page.getByTestId("run-result");
  }

  recentRuns() {
    return this.page.getByTestId("recent-runs");
  }

  async filterRecentRuns(set: string) {
    await this.page.getByTestId("recent-runs-set").selectOption(set);
  }

  caseCount() {
    return this.page.getByTestId("case-count");
  }

  /** Runs the cases and waits for the run to finish. */
  async run(options: { selector?: string; k?: number; learning?: boolean } = {}) {
    if (options.selector) await this.page.getByTestId("selector").selectOption(options.selector);
    if (options.learning !== undefined) await this.page.getByTestId("evaluation-learning").setChecked(options.learning);
    if (options.k !== undefined) await this.page.getByTestId("k").fill(String(options.k));
    const result = this.page.getByTestId("run-result");
    const previous = (await result.count()) > 0 ? await result.getAttribute("data-run") : null;
    await this.page.getByTestId("run-evaluation").click();
    // The previous run's result gives way to the new run's progress, then its result.
    if (previous) await expect(result).not.toHaveAttribute("data-run", previous);
    await expect(result).toBeVisible({ timeout: 30_000 });
  }

  /** A metric's value as the bar chart writes it ("1.00"). */
  metric(name: "recall@1" | "recall@5" | "recall@10" | "ndcg@10") {
    return this.page.getByTestId(`metric-value-${name}`);
  }

  miss(caseIndex: number) {
    return this.page.getByTestId(`miss-${caseIndex}`);
  }

  regression() {
    return this.page.getByTestId("regression");
  }

  trend() {
    return this.page.getByTestId("metric-trend");
  }
}
