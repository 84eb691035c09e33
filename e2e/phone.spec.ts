import { AppShell } from "./pages/app-shell";
import { PlaygroundPage } from "./pages/playground-page";
import { SimulatorPage } from "./pages/simulator-page";
import { ToolsPage } from "./pages/tools-page";
import { expect, test } from "./support/fixtures";

// A phone held upright (an iPhone 14's viewport).
test.use({ viewport: { width: 390, height: 844 } });

/** What every catalog page owes a phone: nothing wider than the screen, and tabs that scroll with the current one in sight. */
async function expectFitsThePhone(shell: AppShell) {
  expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
  await expect(shell.tabs()).toHaveCSS("overflow-x", "auto");
  expect(await shell.tabs().evaluate((tabs) => tabs.scrollWidth > tabs.clientWidth)).toBe(true);
  expect(await shell.isShownWithin(shell.currentTab(), shell.tabs())).toBe(true);
}

test("Tools on a phone: each tool a card whose summary is shown in full width", async ({ page }) => {
  const shell = new AppShell(page);
  const tools = new ToolsPage(page, "demo");
  await tools.goto();
  await expectFitsThePhone(shell);
  await expect(shell.currentTab()).toHaveText("Tools");
  const summary = tools.row("read").locator("td.summary");
  await expect(summary).toBeVisible();
  expect(await shell.isShownWithin(summary, page.getByTestId("tool-scroller"))).toBe(true);
  expect(await shell.width(summary)).toBeGreaterThan(250);
  await expect(tools.row("read").getByRole("switch", { name: "read enabled", exact: true })).toBeVisible();
});

test("Simulator on a phone: its tab scrolled into sight, the final list within the screen", async ({ page }) => {
  const shell = new AppShell(page);
  const simulator = new SimulatorPage(page, "demo");
  await simulator.goto("model=gpt-5&agent=build");
  await expectFitsThePhone(shell);
  await expect(shell.currentTab()).toHaveText("Simulator");
  await expect(simulator.finalTool("a", "apply_patch")).toBeVisible();
  expect(await shell.isShownWithin(simulator.finalTool("a", "apply_patch"), page.locator("body"))).toBe(true);
});

test("Playground on a phone: conversations above the chat, a message box nearly as wide as the screen", async ({ page }) => {
  const shell = new AppShell(page);
  const playground = new PlaygroundPage(page, "demo");
  await playground.goto();
  await expectFitsThePhone(shell);
  await expect(shell.currentTab()).toHaveText("Playground");
  const conversations = await page.getByTestId("conversations").boundingBox();
  const config = await page.getByTestId("playground-config").boundingBox();
  expect(conversations && config && conversations.y + conversations.height <= config.y).toBe(true);
  expect(await shell.width(page.getByTestId("composer"))).toBeGreaterThanOrEqual(300);
});

// Pages whose wide tables scroll inside themselves on a phone (a column's hidden name included).
for (const path of ["/catalogs/demo/rules", "/catalogs/demo/sources", "/teams/default"]) {
  test(`${path} on a phone: its wide tables scroll inside themselves, the page no wider than the screen`, async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open(path, (page) => page.locator("table").first());
    expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
  });
}

test("Usage and Code on a phone: the figures' table and the catalog file scroll inside themselves, the page no wider than the screen", async ({
  page,
  request,
}) => {
  // The Usage page's tool table needs one decision.
  expect((await request.post("/api/catalogs/demo/tool-search", { data: { model: "gpt-5", agent: "build", query: "select:bash" } })).ok()).toBe(true);
  const shell = new AppShell(page);
  await shell.open("/catalogs/demo/usage", (page) => page.getByTestId("usage-tools"));
  expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
  await shell.open("/catalogs/demo/code", (page) => page.getByTestId("export-yaml"));
  expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
});
