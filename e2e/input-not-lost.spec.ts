import { AppShell } from "./pages/app-shell";
import { ToolEditorPage } from "./pages/tool-editor-page";
import { SimulatorPage } from "./pages/simulator-page";
import { ToolsPage } from "./pages/tools-page";
import { expect, test } from "./support/fixtures";

// Issue 14: input is never lost, failures are said in place, and an open page notices changes made elsewhere.

test("typing quickly in the tools search keeps every character, and the URL and the table follow", async ({ page }) => {
  const tools = new ToolsPage(page, "demo");
  await tools.goto();
  await tools.typeSearch("calendar event");
  await expect(tools.searchBox()).toHaveValue("calendar event");
  await expect(page).toHaveURL(/q=calendar\+event/);
  await expect(tools.row("calendar_create_event")).toBeVisible();
  await expect(page.getByTestId("tools-empty")).toHaveCount(0);

  await tools.searchBox().fill("");
  await tools.typeSearch("weather");
  await expect(tools.searchBox()).toHaveValue("weather");
  await expect(page).toHaveURL(/q=weather/);
});

test("a save whose request fails keeps the edits, says so in place, and Retry saves them", async ({ page, request }) => {
  const name = `kept_draft_${Date.now()}`;
  const created = await request.post("/api/catalogs/demo/tools", {
    data: { name, summary: "Before.", description: "A tool to edit.", inputSchema: { type: "object", properties: {} }, tags: [] },
  });
  expect(created.status()).toBe(201);
  await page.goto(`/catalogs/demo/tools/${name}`);
  const editor = new ToolEditorPage(page);
  await editor.fill({ summary: "After, kept through a failure." });

  // The server action is a POST to the page's URL: the first one fails as a crashed server would.
  let failed = false;
  await page.route(`**/catalogs/demo/tools/${name}`, async (route) => {
    if (route.request().method() !== "POST" || failed) return route.fallback();
    failed = true;
    await route.fulfill({ status: 500, contentType: "text/html", body: "Internal Server Error" });
  });
  await editor.save();
  await expect(page.getByTestId("save-error")).toContainText("Your edits are kept");
  await expect(page.getByLabel(/^Summary/)).toHaveValue("After, kept through a failure.");

  await page.getByTestId("save-retry").click();
  await expect(page.getByText(`Saved ${name}`)).toBeVisible();
  await expect(page.getByTestId("save-error")).toHaveCount(0);
  const saved = await request.get(`/api/catalogs/demo/tools/${name}`);
  expect((await saved.json()).tool.summary).toBe("After, kept through a failure.");
  await request.delete(`/api/catalogs/demo/tools/${name}`);
});

test("leaving the Rules page by a tab with unsaved edits asks first", async ({ page }) => {
  await page.goto("/catalogs/demo/rules");
  const ruleName = page.getByTestId("model-rule-0").getByLabel("Rule name");
  await new AppShell(page).hydrated(ruleName);
  await ruleName.fill("Renamed, not saved");
  page.once("dialog", (dialog) => dialog.dismiss());
  await page.getByRole("link", { name: "Agents" }).first().click();
  await expect(page).toHaveURL(/\/rules$/);
  await expect(page.getByTestId("model-rule-0").getByLabel("Rule name")).toHaveValue("Renamed, not saved");

  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("link", { name: "Agents" }).first().click();
  await expect(page).toHaveURL(/\/agents$/);
});

test("an open page notices a revision made elsewhere and offers to refresh", async ({ page, request }) => {
  await page.goto("/catalogs/demo/tools");
  const badge = page.getByTestId("catalog-revision");
  const before = Number((await badge.textContent())?.match(/revision (\d+)/)?.[1]);
  expect(before).toBeGreaterThan(0);

  const { tool } = await (await request.get("/api/catalogs/demo/tools/webfetch")).json();
  const changed = await request.patch("/api/catalogs/demo/tools/webfetch", { data: { tags: [...tool.tags, "revision-check"] } });
  expect(changed.ok()).toBe(true);
  // The badge looks every 10 s, and when the window regains focus.
  await expect(badge).toContainText(`revision ${before} → ${before + 1}`, { timeout: 20_000 });
  await page.getByTestId("revision-refresh").click();
  await expect(badge).toHaveText(`revision ${before + 1}`);
  await request.patch("/api/catalogs/demo/tools/webfetch", { data: { tags: tool.tags } });
});

test("the simulator's two panes, mode and why question survive quick changes and a reload exactly", async ({ page }) => {
  const simulator = new SimulatorPage(page, "demo");
  await simulator.goto("model=gpt-5&agent=build&bmodel=claude-sonnet-4-5&bagent=plan");
  await simulator.setModel("a", "gpt-5-mini");
  const mode = simulator.column("b").getByTestId("mode-input");
  await mode.fill("build");
  await expect(simulator.column("b").getByTestId("mode-input-unapplied")).toBeVisible();
  await mode.press("Enter");
  await simulator.whyMissing("b", "bash");
  await expect(page).toHaveURL(/bmode=build/);
  await expect(page).toHaveURL(/model=gpt-5-mini/);
  await expect(page).toHaveURL(/bwhy=bash/);

  await page.reload();
  await expect(simulator.column("a").getByTestId("model-input")).toHaveValue("gpt-5-mini");
  await expect(simulator.column("b").getByTestId("mode-input")).toHaveValue("build");
  await expect(simulator.column("b").getByTestId("why-input")).toHaveValue("bash");
  await expect(simulator.column("b").getByTestId("final-mode")).toHaveText("build");
});
