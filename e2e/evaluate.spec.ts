import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { AppShell } from "./pages/app-shell";
import { EvaluatePage } from "./pages/evaluate-page";
import { QualityPanel } from "./pages/quality-panel";
import { ToolsPage } from "./pages/tools-page";

/** Tools whose names say nothing, so each case is found by its summary alone; and a planted confusable pair. */
const TOOLS = [
  { name: "op_a1", summary: "Refund a card payment to the customer through Stripe." },
  { name: "op_b2", summary: "Reserve a meeting room in the office for a time slot." },
  { name: "op_c3", summary: "Translate a paragraph of text from French into German." },
  { name: "gmail_send_email", summary: "Send an email message with a subject and body to recipients." },
  { name: "outlook_send_email", summary: "Send an email message with a subject and body to recipients." },
];

const LABELLED_SET = {
  tools: [{ name: "op_a1", description: "ignored: the catalog's own tools are evaluated" }],
  cases: [
    { id: "refund", query: "refund the card payment for this customer", expected: ["op_a1"] },
    { id: "room", query: "reserve a meeting room for tomorrow afternoon", expected: ["op_b2"] },
    { id: "translate", query: "translate this French paragraph into German", expected: ["op_c3"] },
    { id: "elsewhere", query: "open a pull request", expected: ["github_create_pull_request"] },
  ],
};

async function createCatalog(request: APIRequestContext): Promise<string> {
  const created = await request.post("/api/catalogs", { data: { name: `Evaluate ${Date.now().toString(36)}` } });
  expect(created.status()).toBe(201);
  const catalogId: string = (await created.json()).catalog.id;
  for (const tool of TOOLS) {
    const response = await request.post(`/api/catalogs/${catalogId}/tools`, { data: { ...tool, description: tool.summary, inputSchema: { type: "object" } } });
    expect(response.status()).toBe(201);
  }
  return catalogId;
}

test("import a labelled set, run it, break one case with a description edit, run again and see the regression", async ({ page, request }) => {
  const catalogId = await createCatalog(request);
  const evaluate = new EvaluatePage(page, catalogId);
  await evaluate.goto();

  await evaluate.importSet("smoke.json", LABELLED_SET);
  await expect(evaluate.unknownTools()).toContainText("case 4 (elsewhere): github_create_pull_request");
  await evaluate.leaveOutUnknown();
  await expect(evaluate.caseCount()).toHaveText("3 cases");

  await evaluate.run({ selector: "local", k: 1 });
  await expect(evaluate.metric("recall@1")).toHaveText("1.00");
  await expect(page.getByTestId("no-misses")).toBeVisible();

  const edited = await request.patch(`/api/catalogs/${catalogId}/tools/op_b2`, { data: { summary: "Handles the thing.", description: "Handles the thing." } });
  expect(edited.ok()).toBe(true);

  await evaluate.run();
  await expect(evaluate.metric("recall@1")).toHaveText("0.67");
  const miss = evaluate.miss(1);
  await expect(miss.getByTestId("miss-query")).toHaveText(LABELLED_SET.cases[1].query);
  await expect(miss.getByTestId("miss-expected")).toContainText("op_b2");
  await expect(miss.getByTestId("miss-expected")).toContainText("Handles the thing.");
  await expect(evaluate.regression()).toContainText("recall@1 fell from 1.00 to 0.67");
  await expect(evaluate.trend()).toBeVisible();

  // CI reads the same runs through the API, newest first.
  const runs = (await (await request.get(`/api/catalogs/${catalogId}/evaluations?name=smoke`)).json()).evaluations;
  expect(runs.map((run: { metrics: Record<string, number> }) => run.metrics["recall@1"])).toEqual([2 / 3, 1]);
});

test("the tools page's quality report flags a planted confusable pair", async ({ page, request }) => {
  const catalogId = await createCatalog(request);
  const tools = new ToolsPage(page, catalogId);
  await tools.goto();
  const quality = new QualityPanel(page);
  await quality.open();
  await expect(quality.fix("confusable")).toContainText("Fix:");
  await quality.expand("confusable");
  const pair = quality.finding("confusable", ["gmail_send_email", "outlook_send_email"]);
  await expect(pair).toContainText("% alike");
  await expect(pair.getByRole("link", { name: "outlook_send_email" })).toHaveAttribute("href", `/catalogs/${catalogId}/tools/outlook_send_email`);
});

for (const viewport of [
  { name: "wide screen", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`on a ${viewport.name}: a revisit finds the cases and the last run, past runs are listed without a set name, a disabled tool's miss says so`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const catalogId = await createCatalog(request);
    const disabled = await request.patch(`/api/catalogs/${catalogId}/tools/op_c3`, { data: { enabled: false } });
    expect(disabled.ok()).toBe(true);
    const evaluate = new EvaluatePage(page, catalogId);
    await evaluate.goto();
    await evaluate.hydrated();
    await evaluate.writeCase(0, "refund the card payment for this customer", ["op_a1"]);
    await evaluate.writeCase(1, "translate this French paragraph into German", ["op_c3"]);
    await evaluate.setName().fill("revisit");
    await evaluate.run({ selector: "local", k: 1 });
    const runId = await evaluate.result().getAttribute("data-run");

    // The miss is the disabled tool's: the page says so, not "not ranked".
    await expect(evaluate.miss(1).getByTestId("miss-expected")).toContainText("disabled");
    await expect(evaluate.miss(1).getByTestId("miss-expected")).not.toContainText("not ranked");
    expect(await new AppShell(page).seriousViolations()).toEqual([]);

    // Away and back: the cases as typed, the run shown, and the runs listed without typing a set name.
    await new ToolsPage(page, catalogId).goto();
    await evaluate.goto();
    await expect(evaluate.result()).toHaveAttribute("data-run", runId ?? "");
    await expect(evaluate.caseField(1, "Request")).toHaveValue("translate this French paragraph into German");
    await expect(evaluate.caseField(1, "Expected tools")).toHaveValue("op_c3");
    await expect(evaluate.setName()).toHaveValue("revisit");
    await evaluate.setName().fill("");
    await expect(evaluate.recentRuns().getByTestId(`run-row-${runId}`)).toContainText("revisit");
    await evaluate.filterRecentRuns("revisit");
    await expect(evaluate.recentRuns().locator("[data-testid^=run-row-]")).toHaveCount(1);
    expect(await new AppShell(page).pageOverflow()).toBeLessThanOrEqual(0);
  });
}
