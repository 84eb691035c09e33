import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { processesMentioning, processMarker } from "../tests/support/processes";
import { SourcesPage } from "./pages/sources-page";
import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { APP_URL, TOKENS_FILE } from "./support/servers";

// The fixture server with resources and prompts (tests/sources/fixtures/resources-server.mjs).
const SERVER = "fed";
const FIXTURE = "tests/sources/fixtures/resources-server.mjs";

/** An agent on the catalog's MCP gateway, with the admin's API token. */
async function gatewayClient(catalogId: string): Promise<Client> {
  const token = (JSON.parse(readFileSync(TOKENS_FILE, "utf8")) as Record<string, string>)[APP_URL];
  const url = new URL(`/api/catalogs/${catalogId}/mcp?model=gpt-5&agent=build`, APP_URL);
  const client = new Client({ name: "federation-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

test("an MCP server's resources and prompts on the Sources page, and a prompt it adds later approved there for the gateway", async ({ page, request }) => {
  test.setTimeout(120_000);
  const catalogId = await createCatalog(request, "Federation E2E");
  const marker = processMarker("e2e-federation");
  const sources = new SourcesPage(page, catalogId);
  let client: Client | undefined;
  try {
    await sources.goto();
    await sources.fillStdio({ name: SERVER, command: "node", args: [FIXTURE, marker, "label=e2e"] });
    await sources.submit();
    await expect(sources.status(SERVER)).toHaveText("connected");

    const offer = await sources.openOffer(SERVER);
    await expect(offer.locator("summary")).toContainText("4 resource(s), 2 prompt(s)");
    await expect(offer.getByTestId("mcp-resource")).toHaveCount(3);
    await expect(offer.getByTestId("mcp-resource").filter({ hasText: "notes://readme" })).toBeVisible();
    await expect(offer.getByTestId("mcp-resource-template")).toContainText("notes://notes/{id}");
    await expect(sources.prompt(SERVER, "summarise")).toHaveAttribute("data-approved", "true");
    await expect(sources.prompt(SERVER, "review")).toHaveAttribute("data-approved", "true");

    // The server adds a prompt after its first listing: it is held back from the gateway until approved here.
    client = await gatewayClient(catalogId);
    await client.callTool({ name: `${SERVER}__add_prompt`, arguments: {} });
    await expect(async () => {
      await page.reload();
      await sources.openOffer(SERVER);
      await expect(sources.prompt(SERVER, "later")).toHaveAttribute("data-approved", "false", { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain(`${SERVER}__later`);

    await sources.prompt(SERVER, "later").getByTestId("mcp-prompt-approve").click();
    await expect(page.getByText("Approved the prompt later")).toBeVisible();
    await expect(sources.prompt(SERVER, "later")).toHaveAttribute("data-approved", "true");
    await expect.poll(async () => (await client!.listPrompts()).prompts.map((prompt) => prompt.name)).toContain(`${SERVER}__later`);
  } finally {
    await client?.close();
    await request.delete(`/api/catalogs/${catalogId}/mcp-servers/${SERVER}`);
    for (const pid of processesMentioning(marker)) process.kill(pid);
  }
});
