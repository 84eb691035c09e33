import type { APIRequestContext } from "@playwright/test";
import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { SimulatorPage } from "./pages/simulator-page";
import { SourcesPage } from "./pages/sources-page";
import { ToolsPage } from "./pages/tools-page";
import { processesMentioning, processMarker, processMentioning } from "../tests/support/processes";

// The repository's demo MCP server; its tools are registered as <server>__<tool>.
const SERVER = "notes2";
const DEMO_TOOLS = ["notes_search", "notes_get", "notes_create", "notes_delete", "weather_forecast"];
const SEARCH_TOOL = `${SERVER}__notes_search`;

/** A catalog of this spec's own, so that the seeded demo catalog (and its "notes" server) stays as it is. */
async function toolSearch(request: APIRequestContext, catalogId: string, name: string) {
  const response = await request.post(`/api/catalogs/${catalogId}/tool-search`, { data: { model: "gpt-5", agent: "build", query: `select:${name}` } });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { tools: { name: string }[]; rejected: { name: string; reason: string }[] };
  return { found: body.tools.map((tool) => tool.name), rejected: body.rejected };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("a stdio MCP server added on the Sources page: its tools in the catalog, the simulation and ToolSearch; killed, they are unregistered; synced, they are back", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const catalogId = await createCatalog(request, "Sources E2E");
  // The server's process is found by this argument, which the demo server ignores (the app runs on this machine).
  const marker = processMarker("e2e-notes2");
  const token = `e2e-token-${Date.now()}`;
  const sources = new SourcesPage(page, catalogId);
  try {
    await sources.goto();
    await expect(page.getByTestId("mcp-servers-empty")).toBeVisible();

    await sources.fillStdio({ name: SERVER, command: "node", args: ["mcp-servers/demo-server.mjs", marker], env: { DEMO_MCP_TOKEN: token } });
    await sources.submit();
    await expect(page.getByText(`Added ${SERVER}: ${DEMO_TOOLS.length} tool(s) registered`)).toBeVisible();
    await expect(sources.status(SERVER)).toHaveText("connected");
    await expect(sources.toolCount(SERVER)).toHaveText(`${DEMO_TOOLS.length} / ${DEMO_TOOLS.length} registered`);
    await expect(page.getByTestId(`mcp-command-${SERVER}`)).toHaveText(`node mcp-servers/demo-server.mjs ${marker}`);
    await expect(page.getByTestId(`mcp-info-${SERVER}`)).not.toContainText("unknown");
    await expect(page.getByTestId(`mcp-last-sync-${SERVER}`)).toHaveText("just now");
    // The env value is a secret: only its name comes back, on this page and after a reload.
    await page.reload();
    await expect(page.getByTestId(`mcp-env-${SERVER}`)).toHaveText("DEMO_MCP_TOKEN=********");
    await expect(page.getByTestId("sources-page")).not.toContainText(token);
    const firstPid = processMentioning(marker);
    expect(isAlive(firstPid)).toBe(true);

    // In the catalog: the row's link opens the Tools page filtered to this server's tools.
    await sources.toolCount(SERVER).click();
    await expect(page).toHaveURL(new RegExp(`/catalogs/${catalogId}/tools\\?source=mcp&q=${SERVER}__`));
    const tools = new ToolsPage(page, catalogId);
    await expect(tools.rows()).toHaveCount(DEMO_TOOLS.length);
    for (const tool of DEMO_TOOLS) await expect(tools.row(`${SERVER}__${tool}`)).toBeVisible();

    // In a simulated tool list, and found by ToolSearch.
    const simulator = new SimulatorPage(page, catalogId);
    await simulator.goto("model=gpt-5&agent=build");
    await expect(simulator.finalTool("a", SEARCH_TOOL)).toBeVisible();
    expect((await toolSearch(request, catalogId, SEARCH_TOOL)).found).toEqual([SEARCH_TOOL]);

    // The server dies: its status turns to error; its tools stay registered in the shared catalog
    // (health is per instance), and this instance leaves them out as unavailable.
    process.kill(firstPid);
    await expect.poll(() => isAlive(firstPid)).toBe(false);
    await sources.goto();
    await sources.waitForStatus(SERVER, "error");
    await expect(sources.error(SERVER)).toBeVisible();
    await expect(sources.error(SERVER)).toContainText("Error:");
    await expect(sources.toolCount(SERVER)).toHaveText(`${DEMO_TOOLS.length} / ${DEMO_TOOLS.length} registered`);

    const whileDown = await toolSearch(request, catalogId, SEARCH_TOOL);
    expect(whileDown.found).toEqual([]);
    expect(whileDown.rejected).toEqual([{ name: SEARCH_TOOL, reason: "not registered: its source is unavailable" }]);
    await simulator.goto("model=gpt-5&agent=build");
    await expect(simulator.finalTool("a", SEARCH_TOOL)).toHaveCount(0);
    await expect(simulator.finalTool("a", "read")).toBeVisible();

    // Sync starts it again: connected, every tool registered again, found by ToolSearch again.
    await sources.goto();
    await sources.sync(SERVER);
    await expect(page.getByText(new RegExp(`Synced ${SERVER}: `))).toBeVisible();
    await expect(sources.status(SERVER)).toHaveText("connected");
    await expect(sources.toolCount(SERVER)).toHaveText(`${DEMO_TOOLS.length} / ${DEMO_TOOLS.length} registered`);
    await expect(sources.error(SERVER)).toHaveCount(0);
    // Its health history: connected, failing with its cause, and connected again, now.
    await sources.goto();
    const health = page.getByTestId(`mcp-health-${SERVER}`);
    await expect(page.getByTestId(`mcp-health-now-${SERVER}`)).toContainText("connected since");
    const marks = await health.locator(".mcp-health-mark").evaluateAll((spans) => spans.map((span) => span.getAttribute("data-state")));
    expect(marks.at(-1)).toBe("connected");
    expect(marks.lastIndexOf("failing")).toBeGreaterThan(marks.indexOf("connected"));
    await health.locator("summary").click();
    await expect(health.locator("li").filter({ hasText: "failing" }).first()).toContainText("the server process exited");
    const secondPid = processMentioning(marker);
    expect(secondPid).not.toBe(firstPid);
    expect(isAlive(secondPid)).toBe(true);
    expect((await toolSearch(request, catalogId, SEARCH_TOOL)).found).toEqual([SEARCH_TOOL]);
    await simulator.goto("model=gpt-5&agent=build");
    await expect(simulator.finalTool("a", SEARCH_TOOL)).toBeVisible();

    // Deleting it closes its connection and takes its tools out of the catalog.
    await sources.goto();
    await sources.delete(SERVER);
    await expect(page.getByText(`Deleted MCP server ${SERVER}`)).toBeVisible();
    await expect(page.getByTestId("mcp-servers-empty")).toBeVisible();
    await expect.poll(() => isAlive(secondPid)).toBe(false);
    const gone = await toolSearch(request, catalogId, SEARCH_TOOL);
    expect(gone.rejected[0]?.reason).toMatch(/^not registered: not in the catalog/);
  } finally {
    // Whatever failed above, leave no server process behind.
    await request.delete(`/api/catalogs/${catalogId}/mcp-servers/${SERVER}`);
    for (const pid of processesMentioning(marker)) process.kill(pid);
  }
});

test("the add form reports bad lines and the API's field errors, and an unreachable server is added with its error and its secrets hidden", async ({
  page,
  request,
}) => {
  const catalogId = await createCatalog(request, "Sources Form E2E");
  const sources = new SourcesPage(page, catalogId);
  await sources.goto();

  // A malformed env line is caught before anything is sent.
  await sources.fillStdio({ name: "bad", command: "node" });
  await page.getByTestId("mcp-env").fill("NO_EQUALS_SIGN");
  await sources.submit();
  await expect(sources.fieldErrors("env")).toContainText("Line 1: write KEY=value");
  await expect(sources.server("bad")).toHaveCount(0);

  // The API's problems land under their fields.
  await sources.fillStdio({ name: "Bad Name", command: "  ", env: { "1BAD": "x" } });
  await sources.submit();
  await expect(sources.fieldErrors("name")).toContainText("lowercase letters");
  await expect(sources.fieldErrors("command")).toContainText("The command is required.");
  await expect(sources.fieldErrors("env")).toContainText('"1BAD" is not a valid environment variable name.');
  await expect(page.getByTestId("mcp-servers-empty")).toBeVisible();

  // A variable the operator's allowlist does not name for the command line is refused at its field.
  await sources.fillStdio({ name: "pidfile", command: "node", args: ["mcp-servers/demo-server.mjs"], env: { DEMO_MCP_PID_FILE: "/tmp/toolshed-e2e-pid" } });
  await sources.submit();
  await expect(sources.fieldErrors("env")).toContainText('The environment variable "DEMO_MCP_PID_FILE" is not one the operator allowed for this command line.');
  await expect(page.getByTestId("mcp-servers-empty")).toBeVisible();

  // A private address is refused at its field: nothing is stored, nothing is contacted.
  await sources.fillHttp({ name: "internal", url: "http://169.254.169.254/latest/meta-data" });
  await sources.submit();
  await expect(sources.fieldErrors("url")).toContainText("TOOLSHED_MCP_ALLOW_PRIVATE");
  await expect(page.getByTestId("mcp-servers-empty")).toBeVisible();

  // A host that does not resolve: the server is added anyway, in error, with the reason shown.
  await sources.fillHttp({ name: "offline", url: "http://offline.invalid/mcp", headers: { Authorization: "Bearer very-secret-token" } });
  await sources.submit();
  await expect(page.getByText("Added offline, but it could not be reached")).toBeVisible();
  await expect(sources.status("offline")).toHaveText("error");
  await expect(sources.error("offline")).not.toBeEmpty();
  await expect(sources.toolCount("offline")).toHaveText("0 / 0 registered");
  await expect(page.getByTestId("mcp-url-offline")).toHaveText("http://offline.invalid/mcp");
  await expect(page.getByTestId("mcp-headers-offline")).toHaveText("Authorization: ********");
  await page.reload();
  await expect(sources.status("offline")).toHaveText("error");
  await expect(page.getByTestId("sources-page")).not.toContainText("very-secret-token");

  // The same name again is a conflict on the name field.
  await sources.fillHttp({ name: "offline", url: "http://offline.invalid/mcp" });
  await sources.submit();
  await expect(sources.fieldErrors("name")).toContainText('An MCP server named "offline" already exists');

  await sources.delete("offline");
  await expect(page.getByTestId("mcp-servers-empty")).toBeVisible();
});

test("the repository's plugin, skills and file agent are listed, and reloading keeps them", async ({ page }) => {
  const sources = new SourcesPage(page, "demo");
  await sources.goto();
  const plugin = page.getByTestId("plugin-release-helper");
  await expect(plugin).toContainText("example-plugin.mjs");
  await expect(plugin.getByTestId("plugin-tool-changelog_draft")).toBeVisible();
  await expect(plugin.getByTestId("plugin-hook")).toHaveText("tool.definition hook");
  await expect(page.getByTestId("plugin-errors")).toHaveCount(0);
  await expect(page.getByTestId("skill-db-migration")).toContainText("SKILL.md");
  await expect(page.getByTestId("skill-release-notes")).toBeVisible();
  const reviewer = page.getByTestId("subagent-file-reviewer");
  await expect(reviewer).toContainText("reviewer.md");
  await expect(reviewer).toContainText("file");

  await page.getByTestId("reload-sources").click();
  await expect(page.getByText("Reloaded plugins, skills and agents")).toBeVisible();
  await expect(page.getByTestId("plugin-release-helper")).toBeVisible();
  await expect(page.getByTestId("skill-release-notes")).toBeVisible();
});
