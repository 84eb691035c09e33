import { expect, test } from "./support/fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { APP_WITH_MODEL_URL } from "./support/servers";

test.describe("with a main model (the scripted OpenAI-compatible server)", () => {
  test.use({ baseURL: APP_WITH_MODEL_URL });

  test("two turns: history, ToolSearch for a missing tool, its call at the next step, then a replay after it is disabled", async ({ page, request }) => {
    const playground = new PlaygroundPage(page, "demo");
    await playground.goto();
    await expect(page.getByTestId("model-status")).toContainText("openai-compatible:scripted-model");

    await playground.send("Please file the login bug on GitHub");
    const first = playground.turn(1);
    await expect(first.getByTestId("selector")).toHaveText("local");
    await expect(first.getByTestId("set-preselected-github_create_issue")).toBeVisible();
    await expect(first.getByTestId("set-entry-ToolSearch")).toBeVisible();
    await expect(first.getByTestId("tool-call-github_create_issue")).toContainText("Login fails with a valid password");
    await expect(page).toHaveURL(/conversation=/);
    await playground.answerTool("github_create_issue", "Created issue #42");
    await expect(first.getByTestId("assistant-text")).toHaveText("Created issue #42 for the login bug.");

    await playground.setTopK(3);
    await playground.send("Check the signup page in the browser and take a screenshot");
    const second = playground.turn(2);
    await expect(second.getByTestId("set-history-github_create_issue")).toBeVisible();
    await expect(second.getByTestId("tool-set")).not.toContainText("slack_post_message");
    await expect(second.getByTestId("tool-call-github_create_issue")).toContainText("Signup fails on submit");
    await playground.answerTool("github_create_issue", "Created issue #43");

    const search = second.getByTestId("tool-search-event");
    await expect(search).toContainText("post a message to a Slack channel");
    await expect(search).toContainText("semantic");
    await expect(search.getByText("slack_post_message")).toBeVisible();
    await expect(second.getByTestId("next-step-tools").first()).toContainText("slack_post_message");
    await expect(second.getByTestId("tool-call-slack_post_message")).toContainText("#eng");
    await playground.answerTool("slack_post_message", "posted to #eng");
    await expect(second.getByTestId("assistant-text").last()).toHaveText("Both issues are filed and the team has been told in #eng.");

    await page.reload();
    await expect(playground.turn(2).getByTestId("tool-search-event")).toContainText("slack_post_message");
    await expect(playground.turn(2).getByTestId("next-step-tools").first()).toContainText("slack_post_message");
    const firstResult = playground.turn(1).getByTestId("tool-result");
    await expect(firstResult).toContainText("simulated result");
    await expect(firstResult).toContainText("Created issue #42");
    await expect(page.getByTestId("pending-results")).toHaveCount(0);

    const disabled = await request.patch("/api/catalogs/demo/tools/slack_post_message", { data: { enabled: false } });
    expect(disabled.ok()).toBe(true);
    await page.goto("/catalogs/demo/decisions?kind=tool-search");
    await page.locator('[data-testid^="open-decision-"]').first().click();
    await page.getByTestId("replay-button").click();
    await expect(page.getByTestId("diff-rejected-slack_post_message")).toContainText("not registered: disabled in the catalog");
  });
});

test.describe("stopping the main model (the scripted OpenAI-compatible server)", () => {
  test.use({ baseURL: APP_WITH_MODEL_URL });

  test("Stop ends an answer mid-stream; the conversation keeps what came", async ({ page }) => {
    const playground = new PlaygroundPage(page, "demo");
    await playground.goto();
    await playground.send("Please write a long essay about tool catalogs");
    await expect(playground.turn(1).getByTestId("assistant-text")).toHaveText("Once upon a time");
    await playground.stop();
    await expect(page).toHaveURL(/conversation=/);
    // The server stores the stopped answer once the request has ended: reload until it is there.
    await expect(async () => {
      await page.reload();
      await expect(playground.turn(1).getByTestId("assistant-text")).toHaveText("Once upon a time", { timeout: 1_000 });
    }).toPass();
  });
});

test.describe("without a main model", () => {
  test("each message shows the tool set, and the ToolSearch console verifies like the main model's calls", async ({ page }) => {
    const playground = new PlaygroundPage(page, "demo");
    await playground.goto("model=gpt-5&agent=plan");
    await expect(page.getByTestId("model-status")).toContainText("none configured");

    await playground.send("Which Linear tickets are assigned to me?");
    await expect(page).toHaveURL(/conversation=/);
    const turn = playground.turn(1);
    await expect(turn.getByTestId("no-main-model")).toBeVisible();
    await expect(turn.getByTestId("set-entry-ToolSearch")).toBeVisible();
    await expect(turn.getByTestId("tool-set")).toContainText("linear_");

    const exact = await playground.toolSearch("select:stripe_list_invoices,bash");
    await expect(exact.getByTestId("tool-search-path")).toHaveText("exact");
    await expect(exact.getByTestId("found-stripe_list_invoices")).toBeVisible();
    await expect(exact.getByTestId("rejected-bash")).toContainText("removed at permissions");

    const semantic = await playground.toolSearch("find a free slot in my calendar");
    await expect(semantic.getByTestId("tool-search-path")).toHaveText("semantic");
    await expect(semantic.getByTestId("found-calendar_find_free_time")).toBeVisible();

    await page.reload();
    await expect(page.getByTestId("conversation-link").first()).toBeVisible();
    await expect(playground.turn(1).getByTestId("user-message")).toHaveText("Which Linear tickets are assigned to me?");
  });
});
