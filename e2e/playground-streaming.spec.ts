import { AppShell } from "./pages/app-shell";
import { PlaygroundPage } from "./pages/playground-page";
import { APP_WITH_MODEL_URL } from "./support/servers";
import { expect, test } from "./support/fixtures";

/**
 * Issue 25, item 5: a streaming answer is followed unless the reader scrolls up (then "Jump to
 * latest"), Stop stays in sight, and a stopped answer says so, also after a reload. The scripted
 * model writes twelve chapters, a word every 20 ms, then waits (e2e/fixtures/playground-script.json).
 */
const VIEWPORTS = [
  { name: "1440 px", size: { width: 1440, height: 900 } },
  { name: "390 px", size: { width: 390, height: 844 } },
];

test.use({ baseURL: APP_WITH_MODEL_URL });

for (const { name, size } of VIEWPORTS) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport: size });

    test("the page follows the answer, leaves it when the reader scrolls up, Stop stays in sight, and Stopped survives a reload", async ({ page }) => {
      // The story takes ten seconds to write; on a busy machine the whole walk takes about a minute.
      test.slow();
      const playground = new PlaygroundPage(page, "demo");
      await playground.goto();
      await playground.send("Please tell a long story about the shed");
      const text = playground.turn(1).getByTestId("assistant-text");
      await expect(text).toContainText("Chapter 4.");
      await expect.poll(() => playground.newestTextInSight(1)).toBe(true);
      await expect(page.getByTestId("stop")).toBeInViewport();

      // The reader goes back up: the page stays where they are while the answer goes on.
      await playground.scrollUp(1500);
      await expect(playground.jumpToLatest()).toBeVisible();
      const scrolled = await page.evaluate(() => window.scrollY);
      await expect(text).toContainText("Chapter 9.");
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      expect(await playground.newestTextInSight(1)).toBe(false);
      await expect(page.getByTestId("stop")).toBeInViewport();
      expect(await new AppShell(page).seriousViolations()).toEqual([]);

      await playground.jumpToLatest().click();
      await expect(playground.jumpToLatest()).toHaveCount(0);
      await expect(text).toContainText("Chapter 12.");
      await expect.poll(() => playground.newestTextInSight(1)).toBe(true);

      await playground.stop();
      await expect(playground.stoppedMarker(1)).toContainText("Stopped");
      await expect(page).toHaveURL(/conversation=/);
      // The server stores the stopped answer once the request has ended: reload until it is there.
      await expect(async () => {
        await page.reload();
        await expect(playground.stoppedMarker(1)).toBeVisible({ timeout: 1_000 });
      }).toPass();
      await expect(text).toContainText("Chapter 12.");
      expect(await new AppShell(page).seriousViolations()).toEqual([]);
    });
  });
}
