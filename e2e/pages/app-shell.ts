import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

/** The WCAG 2.1 A and AA rules: the level the app promises. */
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** What every page shares: the skip link, the catalog's section tabs, the page's width, and axe-core's view of it. */
export class AppShell {
  constructor(private readonly page: Page) {}

  /** Opens a page and waits until `ready` shows that its data is loaded. */
  async open(path: string, ready: (page: Page) => Locator) {
    await this.page.goto(path);
    await expect(ready(this.page).first()).toBeVisible();
  }

  /**
   * Waits until React has hydrated `element` (it then carries React's props): typing into a
   * server-rendered field before that races hydration, and can land beside the text, not in place of it.
   */
  async hydrated(element: Locator) {
    await expect.poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps")))).toBe(true);
  }

  /** The serious and critical WCAG 2.1 AA violations on the page as it is now: rule, help, and where. */
  async seriousViolations() {
    const { violations } = await new AxeBuilder({ page: this.page }).withTags(WCAG_21_AA).analyze();
    return violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({ rule: violation.id, help: violation.help, where: violation.nodes.map((node) => node.target.join(" ")) }));
  }

  /** The column headers that have no text, not even for screen readers. */
  emptyTableHeaders() {
    return this.page.locator("th").evaluateAll((headers) => headers.filter((header) => !header.textContent?.trim()).map((header) => header.outerHTML));
  }

  skipLink() {
    return this.page.getByTestId("skip-link");
  }

  /** The element the skip link leads to: what follows the top bar. */
  content() {
    return this.page.locator("#content");
  }

  focused() {
    return this.page.locator(":focus");
  }

  tabs() {
    return this.page.getByTestId("catalog-tabs");
  }

  currentTab() {
    return this.tabs().locator('[aria-current="page"]');
  }

  /** How far the page is wider than the window (0 when nothing sticks out sideways). */
  pageOverflow() {
    return this.page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);
  }

  /** Whether `element`'s box lies entirely inside `container`'s visible box, sideways. */
  async isShownWithin(element: Locator, container: Locator) {
    const [inner, outer] = [await element.boundingBox(), await container.boundingBox()];
    if (!inner || !outer) return false;
    return inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1;
  }

  /** Whether `element` is in sight inside the scrolling `frame` as the page opened it: not scrolled past, within the frame and the window. */
  async isInSightUnscrolled(element: Locator, frame: Locator) {
    const [inner, outer] = [await element.boundingBox(), await frame.boundingBox()];
    const width = this.page.viewportSize()?.width ?? 0;
    if (!inner || !outer) return false;
    const scrolled = await frame.evaluate((node) => node.scrollLeft);
    return scrolled === 0 && (await this.isShownWithin(element, frame)) && inner.x >= 0 && inner.x + inner.width <= width + 1;
  }

  async width(element: Locator) {
    return (await element.boundingBox())?.width ?? 0;
  }
}
