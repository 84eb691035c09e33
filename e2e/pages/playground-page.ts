import { expect, type Page } from "@playwright/test";

export class PlaygroundPage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  async goto(query = "model=claude-sonnet-4-5&agent=build") {
    await this.page.goto(`/catalogs/${this.catalogId}/playground?${query}`);
    await expect(this.page.getByTestId("model-status")).toBeVisible();
  }

  turn(number: number) {
    return this.page.getByTestId(`turn-${number}`);
  }

  async send(message: string) {
    await this.page.getByTestId("composer").fill(message);
    await this.page.getByTestId("send").click();
  }

  async answerTool(name: string, output: string) {
    const field = this.page.getByTestId(`result-${name}`);
    await expect(field).toBeVisible();
    await field.fill(output);
    await this.page.getByTestId("send-results").click();
    // This call's field goes; the chat may already wait on the next step's call (another pending block).
    await expect(field).toHaveCount(0);
  }

  /** Stops the main model's answer: the composer offers Send again. */
  async stop() {
    await this.page.getByTestId("stop").click();
    await expect(this.page.getByTestId("send")).toBeVisible();
  }

  composer() {
    return this.page.getByTestId("composer");
  }

  /** What the last turn says about its failed request (where it failed), with Retry. */
  failure() {
    return this.page.getByTestId("turn-failure");
  }

  async retry() {
    await this.failure().getByTestId("retry").click();
  }

  stoppedMarker(turn: number) {
    return this.turn(turn).getByTestId("stopped-marker");
  }

  jumpToLatest() {
    return this.page.getByTestId("jump-to-latest");
  }

  /** Whether the end of the turn's newest text is in sight: above the composer stuck to the window's bottom, and not above the window. */
  newestTextInSight(turn: number) {
    return this.turn(turn)
      .getByTestId("assistant-text")
      .last()
      .evaluate((text) => {
        const composer = document.querySelector('[data-testid="composer-bar"]')?.getBoundingClientRect();
        const { bottom } = text.getBoundingClientRect();
        return bottom > 0 && bottom <= Math.min(composer?.top ?? window.innerHeight, window.innerHeight) + 1;
      });
  }

  /** Scrolls the page up with the mouse wheel, as a reader going back to earlier text. */
  async scrollUp(pixels: number) {
    const size = this.page.viewportSize();
    await this.page.mouse.move((size?.width ?? 800) / 2, 200);
    await this.page.mouse.wheel(0, -pixels);
  }

  async setTopK(k: number) {
    await this.page.getByTestId("playground-k").fill(String(k));
    await expect(this.page).toHaveURL(new RegExp(`k=${k}`));
  }

  async toolSearch(query: string) {
    await this.page.getByTestId("tool-search-query").fill(query);
    await this.page.getByTestId("tool-search-run").click();
    return this.page.getByTestId("tool-search-result").first();
  }
}
