import { expect, test } from "./support/fixtures";
import { DESKTOP_AND_PHONE } from "./support/viewports";
import { AppShell } from "./pages/app-shell";
import { DecisionsPage } from "./pages/decisions-page";

// A demo tool no other spec uses; it is enabled again at the end so later specs see the seed.
const TOOL = "jira_transition_issue";

test.afterEach(async ({ request }) => {
  await request.patch(`/api/catalogs/demo/tools/${TOOL}`, { data: { enabled: true } });
});

test("a ToolSearch decision is listed, filtered, explained, and its replay shows the tool disabled since and the catalog change", async ({ page, request }) => {
  const search = await request.post("/api/catalogs/demo/tool-search", { data: { model: "gpt-5", agent: "build", query: `select:${TOOL}` } });
  expect(search.ok()).toBe(true);
  const { decisionId, conversationId, tools } = await search.json();
  expect(tools.map((tool: { name: string }) => tool.name)).toEqual([TOOL]);

  const decisions = new DecisionsPage(page, "demo");
  await decisions.goto();
  await expect(decisions.row(decisionId)).toBeVisible();

  await decisions.filterByKind("preselect");
  await expect(page).toHaveURL(/kind=preselect/);
  await expect(decisions.row(decisionId)).toHaveCount(0);
  await decisions.filterByKind("tool-search");
  await expect(page).toHaveURL(/kind=tool-search/);
  const row = decisions.row(decisionId);
  await expect(row).toContainText("exact");
  await expect(row.getByTestId("result-count")).toHaveText("1 found");
  await expect(row.getByTestId("rejected-count")).toHaveText("0");
  // The filter survives a reload: it lives in the URL.
  await page.reload();
  await expect(page.getByTestId("filter-kind")).toHaveValue("tool-search");
  await expect(decisions.row(decisionId)).toBeVisible();

  await decisions.open(decisionId);
  await expect(page).toHaveURL(new RegExp(`/catalogs/demo/decisions/${decisionId}$`));
  const detail = decisions.detail();
  await expect(detail.getByTestId("decision-path")).toContainText("exact");
  await expect(detail.getByTestId("decision-query")).toHaveText(`select:${TOOL}`);
  await expect(detail.getByTestId(`found-${TOOL}`)).toBeVisible();
  await expect(detail.getByTestId("decision-raw")).toContainText(TOOL);
  await expect(detail.getByTestId("conversation-link")).toHaveAttribute("href", `/catalogs/demo/playground?conversation=${conversationId}`);

  const disabled = await request.patch(`/api/catalogs/demo/tools/${TOOL}`, { data: { enabled: false } });
  expect(disabled.ok()).toBe(true);

  await decisions.replay("local");
  await expect(decisions.newlyRejected(TOOL)).toContainText("not registered: disabled in the catalog");
  await expect(decisions.removed(TOOL)).toBeVisible();
  await expect(page.getByTestId("replay-after")).not.toContainText(TOOL);
  await expect(decisions.catalogChange(TOOL).getByTestId("change-action")).toHaveText("disable");
});

test("a preselection decision says how many tools the selector saw", async ({ page, request }) => {
  const answer = await request.post("/api/catalogs/demo/preselect", {
    data: { model: "gpt-5", agent: "build", messages: [{ role: "user", content: "Open a Jira issue for the failing build" }], k: 5 },
  });
  expect(answer.ok()).toBe(true);
  const { decisionId } = await answer.json();
  const stored = await (await request.get(`/api/decisions/${decisionId}`)).json();
  const count: number = stored.decision.result.candidateCount;
  expect(count).toBeGreaterThan(0);
  const decisions = new DecisionsPage(page, "demo");
  await decisions.goto();
  await decisions.open(decisionId);
  await expect(decisions.detail().getByTestId("candidate-count")).toHaveText(`The selector saw ${count} candidates (names and summaries only).`);
});

test("filters that match nothing say so, and can be cleared", async ({ page }) => {
  const decisions = new DecisionsPage(page, "demo");
  await decisions.goto("?conversation=00000000-0000-4000-8000-000000000000&rejected=1");
  await expect(decisions.empty()).toContainText("No decisions match these filters");
  await expect(page.getByTestId("filter-rejected")).toBeChecked();
  await page.getByTestId("clear-filters").click();
  await expect(page).toHaveURL(/\/decisions$/);
  await expect(page.getByTestId("filter-rejected")).not.toBeChecked();
});

for (const viewport of DESKTOP_AND_PHONE) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the list shows what each decision was asked, filterable with its selector and outcome, within the screen; Replay sits at the top with its result in view", async ({
      page,
      request,
    }) => {
      const message = `Which tool files my expense report for March? (${viewport.width})`;
      const preselect = await request.post("/api/catalogs/demo/preselect", {
        data: { model: "gpt-5", agent: "build", messages: [{ role: "user", content: message }] },
      });
      expect(preselect.ok()).toBe(true);
      const preselected = (await preselect.json()).decisionId as string;
      const search = await request.post("/api/catalogs/demo/tool-search", { data: { model: "gpt-5", agent: "build", query: "select:read" } });
      const searched = (await search.json()).decisionId as string;

      const decisions = new DecisionsPage(page, "demo");
      const shell = new AppShell(page);
      await decisions.goto();
      await expect(decisions.asked(preselected)).toHaveText(message);
      await expect(decisions.asked(preselected)).toHaveAttribute("title", message);
      await expect(decisions.asked(searched)).toHaveText("select:read");
      expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
      expect(await shell.isShownWithin(decisions.row(preselected), page.locator("body"))).toBe(true);

      await decisions.filterByAsked(`expense report for March? (${viewport.width})`);
      await expect(page).toHaveURL(/q=expense/);
      await expect(decisions.row(searched)).toHaveCount(0);
      await expect(decisions.rows()).toHaveCount(1);
      await expect(decisions.row(preselected)).toBeVisible();
      await page.getByTestId("clear-filters").click();
      await decisions.filterBySelector("none");
      await expect(decisions.row(preselected)).toHaveCount(0);
      await expect(decisions.row(searched)).toBeVisible();
      await decisions.filterByOutcome("none");
      await expect(decisions.row(searched)).toHaveCount(0);
      await decisions.filterByOutcome("chosen");
      await expect(decisions.row(searched)).toBeVisible();
      expect(await shell.seriousViolations()).toEqual([]);

      await decisions.open(searched);
      const replayTop = (await decisions.replayPanel().boundingBox())?.y ?? Number.POSITIVE_INFINITY;
      const rawTop = (await page.getByTestId("decision-raw").boundingBox())?.y ?? 0;
      expect(replayTop).toBeLessThan(rawTop);
      await decisions.replay("local");
      await expect(page.getByTestId("replay-result")).toBeInViewport();
      expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
    });
  });
}
