import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { APP_URL, TOKENS_FILE } from "./support/servers";
import { SourcesPage } from "./pages/sources-page";
import { UsagePage } from "./pages/usage-page";
import { processesMentioning, processMarker } from "../tests/support/processes";

const SERVER = "usage";
const SEARCH = `${SERVER}__notes_search`;
const GET = `${SERVER}__notes_get`;

/** An agent on the catalog's MCP gateway, with the admin's API token, as a real MCP client connects. */
async function gatewayClient(catalogId: string): Promise<Client> {
  const token = (JSON.parse(readFileSync(TOKENS_FILE, "utf8")) as Record<string, string>)[APP_URL];
  const url = new URL(`/api/catalogs/${catalogId}/mcp?model=gpt-5&agent=build`, APP_URL);
  const client = new Client({ name: "usage-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

test("the Usage page counts an agent's gateway calls by tool, sorts them, links a tool to its decisions, and names the tools never called", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const catalogId = await createCatalog(request, "Usage E2E");
  const marker = processMarker("e2e-usage");
  const sources = new SourcesPage(page, catalogId);
  let client: Client | undefined;
  try {
    await sources.goto();
    await sources.fillStdio({ name: SERVER, command: "node", args: ["mcp-servers/demo-server.mjs", marker] });
    await sources.submit();
    await expect(sources.status(SERVER)).toHaveText("connected");

    // Two calls that reach the server, one its stored schema refuses (no query), one of another tool.
    client = await gatewayClient(catalogId);
    expect((await client.callTool({ name: SEARCH, arguments: { query: "meeting" } })).isError).toBeFalsy();
    expect((await client.callTool({ name: SEARCH, arguments: { query: "budget" } })).isError).toBeFalsy();
    expect((await client.callTool({ name: SEARCH, arguments: {} })).isError).toBe(true);
    await client.callTool({ name: GET, arguments: { id: "note-1" } });

    const usage = new UsagePage(page, catalogId);
    await usage.goto();
    const search = usage.toolRow(SEARCH);
    // Name, calls, errors, refused, timeouts, upstream errors, then the latencies.
    await expect(search.locator("td").nth(1)).toHaveText("3");
    await expect(search.locator("td").nth(2)).toHaveText("1");
    await expect(search.locator("td").nth(3)).toHaveText("1");
    await expect(search.locator("td").nth(6)).toHaveText(/\d ms$/);
    await expect(usage.toolRow(GET).locator("td").nth(1)).toHaveText("1");

    // Sorted by calls, busiest first; again, the other way round; by name, A to Z.
    await expect(usage.sortedHeader()).toHaveAttribute("aria-sort", "descending");
    await expect(usage.toolRows().first()).toContainText(SEARCH);
    await usage.sortTools("calls");
    await expect(usage.sortedHeader()).toHaveAttribute("aria-sort", "ascending");
    await expect(usage.toolRows().last()).toContainText(SEARCH);
    await usage.sortTools("name");
    await expect(usage.sortedHeader()).toHaveAttribute("aria-sort", "ascending");
    await expect(usage.toolRows().first()).toContainText(GET);

    // The tools nobody called in 30 days, whatever the window.
    await usage.chooseWindow("1h");
    await expect(usage.neverCalled()).toContainText(`${SERVER}__notes_delete`);
    await expect(usage.neverCalled()).not.toContainText(SEARCH);

    // A tool's name opens its decisions: the three calls, the refused one among them.
    await search.getByRole("link", { name: SEARCH, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/catalogs/${catalogId}/decisions\\?tool=${SEARCH}`));
    await expect(page.getByTestId("filter-tool")).toContainText(SEARCH);
    await expect(page.locator("[data-testid^=decision-row-]")).toHaveCount(3);
  } finally {
    await client?.close();
    await request.delete(`/api/catalogs/${catalogId}/mcp-servers/${SERVER}`);
    for (const pid of processesMentioning(marker)) process.kill(pid);
  }
});
