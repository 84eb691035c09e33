import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";
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
