import type { Locator, Page } from "@playwright/test";
import { AppShell } from "./pages/app-shell";
import { SourcesPage } from "./pages/sources-page";
import { expect, test } from "./support/fixtures";

/**
 * Issue 25, item 12: a toast never covers the control just used (even one at the window's bottom),
 * and an error toast goes as soon as a newer toast supersedes it (the action retried and succeeded).
 */
const VIEWPORTS = [
  { name: "1440 px", size: { width: 1440, height: 900 } },
  { name: "390 px", size: { width: 390, height: 844 } },
];

const toasts = (page: Page, type: "success" | "error") => page.locator(`[data-sonner-toast][data-type="${type}"]`);

/** The area two boxes share, in square pixels (0 when they do not overlap). */
async function overlap(a: Locator, b: Locator): Promise<number> {
  const [one, other] = [await a.boundingBox(), await b.boundingBox()];
  if (!one || !other) return 0;
  const width = Math.min(one.x + one.width, other.x + other.width) - Math.max(one.x, other.x);
  const height = Math.min(one.y + one.height, other.y + other.height) - Math.max(one.y, other.y);
  return Math.max(0, width) * Math.max(0, height);
}

/** Scrolls the page so the control sits at the window's bottom, where a person who scrolled down to it finds it. */
const toBottom = (control: Locator) => control.evaluate((element) => element.scrollIntoView({ block: "end" }));

for (const { name, size } of VIEWPORTS) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport: size });

    test("Create token: the toasts keep clear of the button, and the error goes once the token is made", async ({ page }) => {
      const shell = new AppShell(page);
      await shell.open("/teams/default", (page) => page.getByTestId("token-form"));
      const submit = page.getByTestId("token-submit");
      await shell.hydrated(submit);
      await toBottom(submit);

      // Only blanks: the server refuses the name.
      await page.getByTestId("token-name").fill("   ");
      await submit.click();
      await expect(toasts(page, "error")).toBeVisible();
      await expect.poll(() => overlap(toasts(page, "error"), submit)).toBe(0);

      // Reading the error (the pointer on it holds it), the admin corrects the name and presses Enter.
      await toasts(page, "error").hover();
      await page.getByTestId("token-name").fill(`toast-check-${size.width}`);
      await page.getByTestId("token-name").press("Enter");
      await expect(toasts(page, "success")).toBeVisible();
      await expect(toasts(page, "error")).toHaveCount(0, { timeout: 1_500 });
      await expect.poll(() => overlap(toasts(page, "success"), submit)).toBe(0);
      expect(await shell.seriousViolations()).toEqual([]);
    });

    test("Add server: the toast keeps clear of the button at the window's bottom", async ({ page }) => {
      const shell = new AppShell(page);
      const sources = new SourcesPage(page, "demo");
      await shell.open("/catalogs/demo/sources", () => sources.form());
      const add = sources.form().getByTestId("mcp-add");
      await shell.hydrated(add);
      // A private address: refused with a toast, nothing stored, nothing contacted.
      await sources.fillHttp({ name: "toast-check", url: "http://169.254.169.254/latest/meta-data" });
      await toBottom(add);
      await add.click();
      await expect(toasts(page, "error")).toBeVisible();
      // The field's error under the address pushes the button down: back to the bottom, where it was used.
      await toBottom(add);
      await expect(add).toBeInViewport();
      await expect.poll(() => overlap(toasts(page, "error"), add)).toBe(0);
    });
  });
}
