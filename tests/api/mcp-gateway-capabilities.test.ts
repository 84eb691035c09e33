import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  type CallToolResult,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { disconnectMcpServer } from "@/app/_services/sources";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { listTools } from "@/db/queries/tools";
import { useEnv } from "../sources/helpers";
import { useGatewayClients } from "../support/gateway-clients";
import { processesMentioning, processMarker } from "../support/processes";
import { asInstanceAdmin, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

// The reference server "everything" (tools/conformance), over stdio: 3 of its tools are offered only to clients that declare roots, sampling or elicitation.
const EVERYTHING = path.resolve("tools/conformance/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${EVERYTHING}` });

const connectAs = useGatewayClients("gateway-capabilities-test");
const CAPABILITY_TOOLS = ["everything__get-roots-list", "everything__trigger-elicitation-request", "everything__trigger-sampling-request"];

let db: Db;
let readToken: string;
let marker: string;

beforeEach(async () => {
  db = await useFreshDatabase();
  readToken = await createTestToken(db, "read");
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  marker = processMarker("everything");
  const server = { name: "everything", transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio", marker] };
  expect((await serversRoute.POST(jsonRequest("POST", server, await asInstanceAdmin()), params({ catalog: "team" }))).status).toBe(201);
  const agent = {
    name: "bridged",
    mode: "primary",
    description: "Uses the client.",
    permissions: [{ pattern: "*", action: "allow" }],
    baseTools: CAPABILITY_TOOLS,
  };
  expect((await agentsRoute.POST(jsonRequest("POST", agent), params({ catalog: "team" }))).status).toBe(201);
});

afterEach(async () => {
  await disconnectMcpServer("team", "everything");
});

/** A client that declares every bridged capability and answers each request with its own `label`. */
function capableClient(label: string): Promise<Client> {
  return connectAs(readToken, "model=gpt-5&agent=bridged", "team", {
    capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } },
    prepare: (client) => {
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: `file:///workspaces/${label}`, name: `root of ${label}` }] }));
      client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
        role: "assistant",
        content: { type: "text", text: `sampled by ${label} for: ${JSON.stringify(request.params.messages[0].content)}` },
        model: `model-of-${label}`,
      }));
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: `name from ${label}` } }));
    },
  });
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as CallToolResult;
const textOf = (result: CallToolResult) => result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

describe("client capabilities bridged through the gateway", () => {
  it("lists the server's tools that need a capable client in the catalog, since the shared connection declares them all", async () => {
    const names = (await listTools(db, "team")).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(CAPABILITY_TOOLS));
    expect(names.filter((name) => name.startsWith("everything__"))).toHaveLength(16);
    const { tools } = await (await capableClient("a")).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(CAPABILITY_TOOLS));
  });

  it("forwards the server's sampling and elicitation requests to the calling client, end to end, and tells a stdio server of no roots", async () => {
    const client = await capableClient("a");
    const sampled = await call(client, "everything__trigger-sampling-request", { prompt: "hello there", maxTokens: 20 });
    expect(sampled.isError).toBeFalsy();
    expect(textOf(sampled)).toContain("sampled by a for:");
    expect(textOf(sampled)).toContain("hello there");
    expect(textOf(sampled)).toContain("model-of-a");
    const elicited = await call(client, "everything__trigger-elicitation-request");
    expect(elicited.isError).toBeFalsy();
    expect(textOf(elicited)).toContain("name from a");
    // The server runs on Toolshed's host: the client's folders are not its roots (some servers widen their file access to them).
    const roots = await call(client, "everything__get-roots-list");
    expect(textOf(roots)).not.toContain("file:///workspaces/a");
    expect(textOf(roots)).toContain("no roots are currently configured");
  });

  it("answers each capable session from its own client only, over a connection of its own that closes with the session", async () => {
    const [a, b] = await Promise.all([capableClient("a"), capableClient("b")]);
    const [fromA, fromB] = await Promise.all([
      call(a, "everything__trigger-sampling-request", { prompt: "one" }),
      call(b, "everything__trigger-sampling-request", { prompt: "two" }),
    ]);
    expect(textOf(fromA)).toContain("sampled by a");
    expect(textOf(fromA)).not.toContain("sampled by b");
    expect(textOf(fromB)).toContain("sampled by b");
    expect(textOf(fromB)).not.toContain("sampled by a");
    expect(textOf(await call(b, "everything__get-roots-list"))).not.toContain("workspaces/a");
    // The shared connection and one per capable session.
    expect(processesMentioning(marker)).toHaveLength(3);
    await (a.transport as StreamableHTTPClientTransport).terminateSession();
    await expect.poll(() => processesMentioning(marker).length, { timeout: 5_000 }).toBe(2);
  });

  it("tells a client without the capabilities why the tool failed, and never hands it another session's answers", async () => {
    const capable = await capableClient("a");
    await call(capable, "everything__get-roots-list");
    const plain = await connectAs(readToken, "model=gpt-5&agent=bridged");
    const sampled = await call(plain, "everything__trigger-sampling-request", { prompt: "hi" });
    expect(sampled.isError).toBe(true);
    expect(textOf(sampled)).toContain("did not declare that capability");
    expect(textOf(sampled)).not.toContain("sampled by");
    const elicited = await call(plain, "everything__trigger-elicitation-request");
    expect(elicited.isError).toBe(true);
    expect(textOf(elicited)).toContain("did not declare that capability");
    const roots = await call(plain, "everything__get-roots-list");
    expect(textOf(roots)).not.toContain("workspaces/a");
    expect(textOf(roots)).toContain("no roots are currently configured");
  });
});
