import type { APIRequestContext, Page } from "@playwright/test";
import { AppShell } from "./pages/app-shell";
import { SourcesPage } from "./pages/sources-page";
import { ToolImportPanel } from "./pages/tool-import-panel";
import { ToolsPage } from "./pages/tools-page";
import { expect, test } from "./support/fixtures";

/** Issue 25, items 1 and 2: the Tools page imports files of any size and of the formats teams already have. */

const SCHEMA = {
  type: "object",
  properties: { id: { type: "string", description: "The record's id" }, limit: { type: "integer", minimum: 1, maximum: 100 } },
  required: ["id"],
};

/** A labelled-set tool of about 300 characters: 5,000 of them pass the megabyte a server action's arguments stopped at. */
const tool = (index: number) => ({
  name: `svc_${index}_lookup`,
  description: `Looks up record ${index} of service ${index % 97} by its id, with paging.`,
  parameters: SCHEMA,
});
const labelledSet = (count: number) => ({ tools: Array.from({ length: count }, (_, index) => tool(index)) });
/** The same tools as OpenAI Chat Completions function tools: a plain list, as a team's code holds them. */
const openAiTools = (count: number) => Array.from({ length: count }, (_, index) => ({ type: "function", function: { ...tool(index), strict: true } }));

async function newCatalog(request: APIRequestContext, name: string): Promise<string> {
  const created = await request.post("/api/catalogs", { data: { name } });
  expect(created.status()).toBe(201);
  return (await created.json()).catalog.id as string;
}

async function openTools(page: Page, catalogId: string) {
  const tools = new ToolsPage(page, catalogId);
  await tools.goto();
  return { tools, panel: new ToolImportPanel(page), shell: new AppShell(page) };
}

test.describe("at 1440 px", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("item 1: a 50,000-tool file imports through the page: previewed, confirmed, followed to its result", async ({ page, request }) => {
    test.setTimeout(600_000);
    const catalogId = await newCatalog(request, "Fifty Thousand");
    const { tools, panel } = await openTools(page, catalogId);
    await panel.choose("fifty-thousand.json", labelledSet(50_000));
    await expect(panel.counts()).toContainText("create 50000", { timeout: 240_000 });
    await expect(panel.format()).toHaveText("Read as labelled set");
    await panel.confirm();
    await expect(panel.result()).toHaveText("Imported: 50000 created, 0 updated, 0 unchanged", { timeout: 300_000 });
    await expect(tools.count()).toContainText("50,");
  });

  test("item 2: OpenAI function tools import as they are, named in the preview; an unknown shape gets one message naming the formats", async ({
    page,
    request,
  }) => {
    const catalogId = await newCatalog(request, "OpenAI Import");
    const { tools, panel, shell } = await openTools(page, catalogId);
    await panel.choose("openai-tools.json", openAiTools(203));
    await expect(panel.format()).toHaveText("Read as OpenAI Chat Completions function tools");
    await expect(panel.counts()).toContainText("create 203");
    await expect(panel.notes()).toContainText('"strict" (on 203 tools) is not kept');
    expect(await shell.seriousViolations()).toEqual([]);
    await panel.confirm();
    await expect(panel.result()).toHaveText("Imported: 203 created, 0 updated, 0 unchanged");
    await expect(tools.row("svc_7_lookup")).toBeVisible();

    // Wrapped in {"tools": …}, with one broken tool: named by the file's own field.
    const wrapped = openAiTools(3) as unknown[];
    wrapped[1] = { type: "function", function: { name: "bad name", description: "x", parameters: SCHEMA } };
    await panel.choose("wrapped.json", { tools: wrapped });
    await expect(panel.invalid()).toContainText("bad name #2function.name");
    await panel.close();

    await panel.choose("functions.json", { functions: [{ name: "x" }] });
    await expect(panel.error()).toContainText("functions.json cannot be imported: nothing was changed.");
    for (const format of [
      "OpenAI Chat Completions function tools",
      "OpenAI Responses function tools",
      "Anthropic tools",
      "MCP tools/list result",
      "MCP client configuration (Claude Desktop, Cursor)",
    ])
      await expect(panel.error()).toContainText(format);
    expect(await shell.seriousViolations()).toEqual([]);
  });

  test("item 2: a Claude Desktop configuration previews its server without its secret and adds it to Sources", async ({ page, request }) => {
    const catalogId = await newCatalog(request, "Claude Config");
    const { panel, shell } = await openTools(page, catalogId);
    const config = { mcpServers: { "Demo Notes": { command: "node", args: ["mcp-servers/demo-server.mjs"], env: { DEMO_MCP_TOKEN: "e2e-secret-4711" } } } };
    await panel.choose("claude_desktop_config.json", config);
    await expect(panel.format()).toHaveText("Read as MCP client configuration");
    await expect(panel.server("Demo Notes")).toContainText("demo-notes (stdio) node mcp-servers/demo-server.mjs");
    await expect(panel.server("Demo Notes")).toContainText("Environment DEMO_MCP_TOKEN: stored encrypted");
    await expect(panel.panel()).not.toContainText("e2e-secret-4711");
    expect(await shell.seriousViolations()).toEqual([]);
    await panel.confirm();
    await expect(panel.result()).toHaveText("Added 1 MCP server:");
    await page.getByTestId("import-sources-link").click();
    const sources = new SourcesPage(page, catalogId);
    await expect(sources.server("demo-notes")).toBeVisible();
  });
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("item 1: a 6,000-tool file imports on a phone, its panel within the screen", async ({ page, request }) => {
    test.setTimeout(300_000);
    const catalogId = await newCatalog(request, "Phone Import");
    const { panel, shell } = await openTools(page, catalogId);
    await panel.choose("six-thousand.json", labelledSet(6_000));
    await expect(panel.counts()).toContainText("create 6000", { timeout: 120_000 });
    expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
    await panel.confirm();
    await expect(panel.result()).toHaveText("Imported: 6000 created, 0 updated, 0 unchanged", { timeout: 180_000 });
  });

  test("item 2: an Anthropic file and an unknown shape on a phone: the format named, the message wrapped within the screen", async ({ page, request }) => {
    const catalogId = await newCatalog(request, "Phone Formats");
    const { panel, shell } = await openTools(page, catalogId);
    const anthropic = Array.from({ length: 12 }, (_, index) => ({ name: tool(index).name, description: tool(index).description, input_schema: SCHEMA }));
    await panel.choose("anthropic.json", anthropic);
    await expect(panel.format()).toHaveText("Read as Anthropic tools");
    await expect(panel.counts()).toContainText("create 12");
    expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
    await panel.close();
    await panel.choose(
      "plain.json",
      openAiTools(203).map((entry) => entry.function.name),
    );
    await expect(panel.error()).toContainText("OpenAI Chat Completions function tools");
    expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
    expect(await shell.seriousViolations()).toEqual([]);
  });
});
