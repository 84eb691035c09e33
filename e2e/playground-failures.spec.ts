import { AppShell } from "./pages/app-shell";
import { PlaygroundPage } from "./pages/playground-page";
import { APP_WITH_MODEL_URL } from "./support/servers";
import { expect, test } from "./support/fixtures";

/** Issue 25, item 3: a failed send keeps its message, says where it failed, and offers Retry. */
const VIEWPORTS = [
  { name: "1440 px", size: { width: 1440, height: 900 } },
  { name: "390 px", size: { width: 390, height: 844 } },
];
const PLAYGROUND_API = "**/api/catalogs/demo/playground";
const MESSAGE = "Which Linear tickets are assigned to me?";

for (const { name, size } of VIEWPORTS) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport: size });

    test("a send that fails on the network keeps the message, blames the network, and Retry sends it once", async ({ page }) => {
      const playground = new PlaygroundPage(page, "demo");
      await playground.goto("model=gpt-5&agent=plan");
      await page.route(PLAYGROUND_API, (route) => route.abort("internetdisconnected"));
      await playground.send(MESSAGE);

      await expect(playground.failure()).toHaveAttribute("data-kind", "network");
      await expect(playground.failure()).toContainText("Network error");
      await expect(playground.failure()).not.toContainText(/model/i);
      await expect(playground.failure()).toHaveAttribute("role", "alert");
      await expect(playground.composer()).toHaveValue(MESSAGE);
      await expect(playground.turn(1).getByText("Preselecting…")).toHaveCount(0);
      await expect(playground.failure().getByTestId("retry")).toBeInViewport();
      expect(await new AppShell(page).seriousViolations()).toEqual([]);

      await page.unroute(PLAYGROUND_API);
      await playground.retry();
      await expect(playground.turn(1).getByTestId("tool-set")).toContainText("linear_");
      await expect(playground.turn(1).getByTestId("user-message")).toHaveText(MESSAGE);
      await expect(playground.failure()).toHaveCount(0);
      await expect(playground.turn(2)).toHaveCount(0);
      await expect(playground.composer()).toHaveValue("");
      await expect(page).toHaveURL(/conversation=/);
    });

    test("a server error is named the server's, with its message, not the model's", async ({ page }) => {
      const playground = new PlaygroundPage(page, "demo");
      await playground.goto("model=gpt-5&agent=plan");
      await page.route(PLAYGROUND_API, (route) =>
        route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "internal", message: "Boom." } }) }),
      );
      await playground.send(MESSAGE);
      await expect(playground.failure()).toHaveAttribute("data-kind", "server");
      await expect(playground.failure()).toContainText("Server error (500): Boom.");
      await expect(playground.failure()).not.toContainText(/model/i);
      await expect(playground.composer()).toHaveValue(MESSAGE);
    });

    test("a model's error is named the main model's, after the preselection, with Retry, which never stores the message twice", async ({ page }) => {
      const playground = new PlaygroundPage(page, "demo");
      // The app whose main model is the scripted server, which refuses this message.
      await page.goto(`${APP_WITH_MODEL_URL}/catalogs/demo/playground?model=claude-sonnet-4-5&agent=build`);
      await expect(page.getByTestId("model-status")).toContainText("scripted-model");
      await playground.send("Please break the model");
      await expect(playground.failure()).toHaveAttribute("data-kind", "model");
      await expect(playground.failure()).toContainText("Main model error: ");
      await expect(playground.failure()).toContainText("does not accept this request");
      await expect(playground.turn(1).getByTestId("tool-set")).toBeVisible();
      await expect(playground.failure().getByTestId("retry")).toBeVisible();

      // The server stored the message before the model failed: Retry sends it again, and it fails again.
      await expect(page).toHaveURL(/conversation=/);
      // Its answer's headers come once the turn is stored; the model's error then ends its stream (whose end the browser may never report).
      const retried = page.waitForResponse("**/api/catalogs/demo/playground");
      await playground.retry();
      expect((await retried).ok()).toBe(true);
      await expect(playground.failure()).toHaveAttribute("data-kind", "model");
      await expect(playground.failure().getByTestId("retry")).toBeVisible();
      // The stored conversation has the message once.
      await page.reload();
      await expect(playground.turn(1).getByTestId("user-message")).toHaveText("Please break the model");
      await expect(playground.turn(2)).toHaveCount(0);
    });
  });
}
