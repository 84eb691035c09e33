import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  type CallToolResult,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { processesMentioning, processMarker } from "../tests/support/processes";
import { SourcesPage } from "./pages/sources-page";
import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { APP_URL, TOKENS_FILE } from "./support/servers";

/**
 * Issue 30 against the production build, with the MCP SDK's client: the rest of MCP through a
 * catalog's gateway, from upstreams written for the tests (tests/sources/fixtures/resources-server.mjs)
 * and the reference server "everything" (tools/conformance).
 */
const FIXTURE = "tests/sources/fixtures/resources-server.mjs";
const EVERYTHING = "tools/conformance/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

async function gatewayClient(catalogId: string, capable: boolean): Promise<Client> {
  const token = (JSON.parse(readFileSync(TOKENS_FILE, "utf8")) as Record<string, string>)[APP_URL];
  const url = new URL(`/api/catalogs/${catalogId}/mcp?model=gpt-5&agent=bridged`, APP_URL);
  const client = new Client(
    { name: "gateway-protocol-e2e", version: "1.0.0" },
    capable ? { capabilities: { roots: {}, sampling: {}, elicitation: { form: {} } } } : {},
  );
  if (capable) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///workspaces/e2e" }] }));
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      content: { type: "text", text: "sampled by the e2e client" },
      model: "e2e-model",
    }));
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "answered by the e2e client" } }));
  }
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const textOf = (result: CallToolResult) => result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as CallToolResult;

test("resources, prompts, client capabilities, pagination and honest errors through the gateway of a production build", async ({ page, request }) => {
  test.setTimeout(120_000);
  const catalogId = await createCatalog(request, "Gateway protocol E2E");
  const marker = processMarker("e2e-gateway-protocol");
  const clients: Client[] = [];
  try {
    // A stdio server runs a command on the host: only a signed-in instance admin adds one (an API token cannot).
    const sources = new SourcesPage(page, catalogId);
    await sources.goto();
    for (const server of [
      { name: "fed", command: "node", args: [FIXTURE, marker, "label=e2e"] },
      { name: "everything", command: "node", args: [EVERYTHING, "stdio", marker] },
    ]) {
      await sources.fillStdio(server);
      await sources.submit();
      await expect(sources.status(server.name)).toHaveText("connected");
    }
    const agent = { name: "bridged", mode: "primary", description: "Uses everything.", permissions: [{ pattern: "*", action: "allow" }], baseTools: [] };
    expect((await request.post(`/api/catalogs/${catalogId}/agents`, { data: agent })).status()).toBe(201);

    const capable = await gatewayClient(catalogId, true);
    const plain = await gatewayClient(catalogId, false);
    clients.push(capable, plain);

    // Resources: listed under the gateway's URIs, read from their server; a tool's resource link is readable too.
    const { resources } = await capable.listResources();
    const readme = resources.find((resource) => resource.name === "fed__readme");
    expect(readme?.uri).toMatch(/^toolshed:\/\/fed\//);
    expect((await capable.readResource({ uri: readme!.uri })).contents[0]).toMatchObject({ text: "readme of e2e" });
    const link = (await call(capable, "fed__link")).content[0];
    expect(link).toMatchObject({ type: "resource_link" });
    expect((await capable.readResource({ uri: (link as { uri: string }).uri })).contents[0]).toMatchObject({ text: "readme of e2e" });

    // Subscriptions: the server's update reaches the subscribing client under the gateway's URI. (A client without
    // client capabilities: a capable one's calls to a stdio server run in a process of its own, whose state is its own.)
    const counter = resources.find((resource) => resource.name === "fed__counter")!;
    const updated: string[] = [];
    plain.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push(notification.params.uri));
    await plain.subscribeResource({ uri: counter.uri });
    await call(plain, "fed__bump");
    await expect.poll(() => updated).toContain(counter.uri);

    // Prompts: namespaced, their arguments passed on.
    expect((await capable.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(["fed__summarise", "fed__review"]));
    const prompt = await capable.getPrompt({ name: "fed__summarise", arguments: { topic: "the release" } });
    expect(JSON.stringify(prompt.messages)).toContain("Summarise the release (e2e).");

    // Client capabilities: the upstream's sampling and elicitation reach the client that declared them; a stdio server gets no roots.
    expect(textOf(await call(capable, "everything__trigger-sampling-request", { prompt: "hello", maxTokens: 10 }))).toContain("sampled by the e2e client");
    expect(textOf(await call(capable, "everything__trigger-elicitation-request"))).toContain("answered by the e2e client");
    expect(textOf(await call(capable, "everything__get-roots-list"))).not.toContain("workspaces/e2e");
    const refused = await call(plain, "everything__trigger-sampling-request", { prompt: "hello" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("did not declare that capability");

    // Pagination: an invalid cursor is a protocol error; invalid arguments to the gateway's own tools are a tool error the model can correct.
    await expect(capable.listTools({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: -32602 });
    const invalid = await call(capable, "ToolSearch", { query: 42 });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain("its arguments are invalid");
  } finally {
    for (const client of clients) await client.close();
    for (const name of ["fed", "everything"]) await request.delete(`/api/catalogs/${catalogId}/mcp-servers/${name}`);
    for (const pid of processesMentioning(marker)) process.kill(pid);
  }
});
