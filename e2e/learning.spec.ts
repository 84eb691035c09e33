import type { APIRequestContext } from "@playwright/test";
import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { DecisionsPage } from "./pages/decisions-page";
import { EvaluatePage } from "./pages/evaluate-page";
import { ToolPage } from "./pages/tool-page";
import { UsagePage } from "./pages/usage-page";

const TOOLS = [
  { name: "weather_forecast", summary: "Get the weather forecast for a city for the next days." },
  { name: "issue_create", summary: "Open an issue in the team's tracker." },
  { name: "calendar_add_event", summary: "Add an event to the user's calendar." },
];
const ASKED = "what should I pack for the beach trip to Nice on saturday";

async function preselect(request: APIRequestContext, catalogId: string) {
  const answer = await request.post(`/api/catalogs/${catalogId}/preselect`, {
    data: { model: "gpt-5", agent: "build", messages: [{ role: "user", content: ASKED }], k: 3 },
  });
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as { decisionId: string; selected: { name: string; learned?: number }[] };
}

test("the selector learns from reported use: the Usage page shows it and turns it off and on, the tool page shows its words, a decision the learned part, and reset forgets it", async ({
  page,
  request,
}) => {
  const catalogId = await createCatalog(request, "Learning E2E");
  for (const tool of TOOLS) {
    const created = await request.post(`/api/catalogs/${catalogId}/tools`, { data: { ...tool, description: tool.summary, inputSchema: { type: "object" } } });
    expect(created.status()).toBe(201);
  }
  expect((await preselect(request, catalogId)).selected.every((tool) => tool.learned === undefined)).toBe(true);

  const usage = new UsagePage(page, catalogId);
  await usage.goto();
  await expect(usage.learningStatus()).toHaveText("On · 0 reports about 0 tools");

  const reported = await request.post(`/api/catalogs/${catalogId}/usage`, {
    data: {
      events: [
        { query: "packing for the beach trip this weekend, what do I bring", used: ["weather_forecast"] },
        { query: "beach trip on sunday: pack a jacket?", used: ["weather_forecast"] },
      ],
    },
  });
  expect(await reported.json()).toEqual({ accepted: 2, ignored: [] });

  await usage.goto();
  await expect(usage.learningStatus()).toHaveText("On · 2 reports about 1 tool");
  await usage.toggleLearning();
  await expect(usage.learningStatus()).toHaveText("Off · 2 reports about 1 tool");
  expect((await preselect(request, catalogId)).selected.every((tool) => tool.learned === undefined)).toBe(true);
  await usage.toggleLearning();
  await expect(usage.learningStatus()).toHaveText("On · 2 reports about 1 tool");

  const tool = new ToolPage(page, catalogId);
  await tool.goto("weather_forecast");
  await expect(tool.learnedWords()).toContainText("2.0 reports");
  await expect(
    tool
      .learnedWords()
      .getByRole("listitem")
      .filter({ hasText: /^beach$/ }),
  ).toBeVisible();

  const { decisionId, selected } = await preselect(request, catalogId);
  expect(selected[0]).toMatchObject({ name: "weather_forecast", learned: expect.any(Number) });
  const decisions = new DecisionsPage(page, catalogId);
  await decisions.goto();
  await decisions.open(decisionId);
  await expect(decisions.detail().getByTestId("learned-weather_forecast")).toHaveText(/· \d+ % learned/);

  // The same case with and without learning, side by side in the recent runs.
  const evaluate = new EvaluatePage(page, catalogId);
  await evaluate.goto();
  await evaluate.hydrated();
  await evaluate.writeCase(0, ASKED, ["weather_forecast"]);
  await evaluate.run({ k: 1, learning: false });
  await expect(evaluate.result()).toContainText("selector local ·");
  await expect(evaluate.metric("recall@1")).toHaveText("0.00");
  await evaluate.run({ k: 1, learning: true });
  await expect(evaluate.result()).toContainText("selector local+learned");
  await expect(evaluate.metric("recall@1")).toHaveText("1.00");
  await expect(evaluate.recentRuns().getByRole("row").filter({ hasText: "local+learned" })).toHaveCount(1);

  await usage.goto();
  await usage.forgetLearned();
  await expect(usage.learningStatus()).toHaveText("On · 0 reports about 0 tools");
  await tool.goto("weather_forecast");
  await expect(tool.learnedWords()).toContainText("Nothing yet");
});
