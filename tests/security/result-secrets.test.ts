import type { Server as HttpServer } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeGatewaySessions } from "@/app/_services/mcp-gateway";
import { addMcpServer, removeMcpServer, syncMcpServer } from "@/app/_services/sources";
import type { Db } from "@/db/client";
import { auditEntries, conversationMessages, conversations, decisions, mcpServers, tools } from "@/db/tables";
import { apiRequest, createTestToken, useFreshDatabase } from "../api/helpers";
import { useEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import type { Principal } from "@/lib/auth/policy";
import { startToolshedHttpServer, type ToolshedHttpServer } from "../support/toolshed-http-server";
import { serveStatelessMcp } from "../support/stateless-mcp-server";

/**
 * Issue 21, item 4: an upstream MCP server that quotes the headers it was sent (its stored
 * Authorization secret) in results, error results, thrown errors and tool descriptions. Nothing of
 * the secret, in any encoding, may reach a caller of the gateway, the playground or ToolSearch,
 * the stored conversations and decisions, or the model.
 */

const SECRET = "tok/en+S3cret=9f8e&7d";
const AUTHORIZATION = `Bearer ${SECRET}`;
const b64 = (text: string) => Buffer.from(text).toString("base64");
const hex = (text: string) => Buffer.from(text).toString("hex");

/** The secret as the upstream writes it, and as anyone could decode it. */
const LEAKS = {
  plain: SECRET,
  base64: b64(SECRET),
  "base64 of the header": b64(AUTHORIZATION),
  hex: hex(SECRET),
  "URL-encoded": encodeURIComponent(SECRET),
};

function expectNoSecret(where: string, value: unknown) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  for (const [form, leak] of Object.entries(LEAKS)) expect(text.includes(leak), `${where} holds the secret (${form})`).toBe(false);
}

const TOOLS = ["echo_headers", "fail_quoting_headers", "throw_quoting_headers"];

/** The test's upstream: an MCP server over Streamable HTTP that repeats the Authorization header it gets everywhere it can. */
function startQuotingServer(): Promise<{ url: string; http: HttpServer }> {
  return serveStatelessMcp(async (request, _response) => {
    const authorization = String(request.headers.authorization ?? "");
    const server = new Server({ name: "quoting", version: `1 (${authorization})` }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: TOOLS.map((name) => ({
        name,
        description: `Repeats what it was sent (last seen: ${hex(authorization)}).`,
        inputSchema: { type: "object", properties: {} },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      if (call.params.name === "echo_headers") {
        return {
          content: [
            { type: "text", text: `You sent: ${JSON.stringify(request.headers)}`, _meta: { seen: hex(authorization) } },
            {
              type: "resource",
              resource: { uri: `headers://${encodeURIComponent(authorization)}`, mimeType: "text/plain", text: `base64: ${b64(authorization)}` },
            },
            { type: "resource", resource: { uri: "headers://blob", mimeType: "text/plain", blob: b64(`Authorization: ${authorization}`) } },
            { type: "image", mimeType: "image/png", data: b64(`PNG…${authorization}…`) },
          ],
          structuredContent: { headers: request.headers, [authorization]: "as a key" },
        };
      }
      if (call.params.name === "fail_quoting_headers") {
        return { isError: true, content: [{ type: "text", text: `Backend refused Authorization: ${authorization} (${encodeURIComponent(authorization)})` }] };
      }
      throw new McpError(ErrorCode.InternalError, `Upstream refused the request with Authorization: ${authorization}`);
    });
    return server;
  });
}

useEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1", TOOLSHED_MCP_CALL_TIMEOUT_MS: "5000" });

const selectAll = `select:${TOOLS.map((tool) => `quoting__${tool}`).join(",")}`;
const upstreams: HttpServer[] = [];
let toolshed: ToolshedHttpServer;
let model: ScriptedOpenAIServer;

beforeAll(async () => {
  toolshed = await startToolshedHttpServer();
  // The playground's main model: ToolSearch for the three tools, then a call of each, then an answer.
  model = await startScriptedOpenAIServer((request) => {
    const lastCall = JSON.stringify((request.body?.messages ?? []).findLast((message) => message.role === "assistant") ?? null);
    if (lastCall.includes('"name":"ToolSearch"')) return { toolCalls: TOOLS.map((tool) => ({ name: `quoting__${tool}`, arguments: {} })) };
    if (lastCall.includes("quoting__")) return { text: "Done." };
    return { toolCalls: [{ name: "ToolSearch", arguments: { query: selectAll } }] };
  });
  process.env.TOOLSHED_MAIN_MODEL = "openai-compatible:scripted-model";
  process.env.TOOLSHED_OPENAI_COMPATIBLE_BASE_URL = model.url;
});

afterAll(async () => {
  closeGatewaySessions();
  delete process.env.TOOLSHED_MAIN_MODEL;
  delete process.env.TOOLSHED_OPENAI_COMPATIBLE_BASE_URL;
  await model.close();
  await toolshed.close();
  for (const http of upstreams) {
    http.closeAllConnections();
    http.close();
  }
});

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await routeApiRequest(jsonPost("/api/catalogs", { name: "Team" }))).status).toBe(201);
  const upstream = await startQuotingServer();
  upstreams.push(upstream.http);
  // Added as the service is by an instance admin (a private address): who may add servers is another test's concern.
  const operator: Principal = { kind: "token", id: "test", name: "test", teamId: "default", scope: "instance" };
  const added = await addMcpServer(db, "team", { name: "quoting", transport: "http", url: upstream.url, headers: { Authorization: AUTHORIZATION } }, operator);
  expect(added.error).toBeUndefined();
  return () => removeMcpServer(db, "team", "quoting", "test");
});

/** A thrown upstream error takes the server out of this instance's answers until a sync brings it back. */
async function reachUpstream() {
  expect((await syncMcpServer(db, "team", "quoting")).error).toBeUndefined();
}

function jsonPost(url: string, body: unknown, token?: string): Request {
  return apiRequest(url, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

async function getJson(url: string, token: string): Promise<unknown> {
  const response = await routeApiRequest(apiRequest(url, { headers: { authorization: `Bearer ${token}` } }));
  expect(response.status, url).toBe(200);
  return response.json();
}

/** What a reader of the catalog can see of what happened: the conversations, the decisions, each decision whole. */
async function expectNothingStoredOrShown(token: string) {
  const { conversations: list } = (await getJson("/api/catalogs/team/conversations", token)) as { conversations: { id: string }[] };
  expect(list.length).toBeGreaterThan(0);
  for (const { id } of list) expectNoSecret(`GET …/conversations/${id}`, await getJson(`/api/catalogs/team/conversations/${id}`, token));
  const { decisions: logged } = (await getJson("/api/catalogs/team/decisions?limit=500", token)) as { decisions: { id: string }[] };
  expect(logged.length).toBeGreaterThan(0);
  expectNoSecret("GET …/decisions", logged);
  for (const { id } of logged) expectNoSecret(`GET /api/decisions/${id}`, await getJson(`/api/decisions/${id}`, token));
  expectNoSecret("GET …/tools", await getJson("/api/catalogs/team/tools", token));
  for (const table of [conversations, conversationMessages, decisions, tools, auditEntries, mcpServers]) {
    expectNoSecret("the database", await db.select().from(table));
  }
}

describe("secrets of an MCP server's configuration never leave through results", () => {
  it("through the MCP gateway, for a read token and for an admin token (who sees upstream details)", async () => {
    for (const scope of ["read", "admin"] as const) {
      await reachUpstream();
      const token = await createTestToken(db, scope, `gateway-${scope}`);
      const client = new Client({ name: "result-secrets-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${toolshed.url}/api/catalogs/team/mcp?model=gpt-5&agent=build`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      try {
        const search = await client.callTool({ name: "ToolSearch", arguments: { query: selectAll } });
        expectNoSecret("the gateway's ToolSearch", search);
        expect(JSON.stringify(search)).toContain('"name\\": \\"quoting__echo_headers');
        expectNoSecret("the gateway's tools/list", await client.listTools());
        for (const tool of TOOLS) {
          const result = await client.callTool({ name: `quoting__${tool}`, arguments: {} });
          expect(result.isError ?? false).toBe(tool !== "echo_headers");
          if (tool === "echo_headers") {
            expect(JSON.stringify(result)).toContain("You sent:");
            // Base64 data that decodes to the secret cannot be masked without breaking it: withheld whole.
            expect(JSON.stringify(result)).toContain("[image content withheld");
            expect(JSON.stringify(result)).toContain("[embedded resource withheld");
          }
          expectNoSecret(`the gateway's result of ${tool}`, result);
        }
      } finally {
        await client.close();
      }
      await expectNothingStoredOrShown(token);
    }
  });

  it("through the playground's live MCP calls and the ToolSearch route, to the caller and to the model", async () => {
    for (const scope of ["read", "admin"] as const) {
      await reachUpstream();
      const token = await createTestToken(db, scope, `playground-${scope}`);
      const response = await routeApiRequest(
        jsonPost("/api/catalogs/team/playground", { model: "gpt-5", agent: "build", message: "Show me the headers" }, token),
      );
      expect(response.status).toBe(200);
      const stream = await response.text();
      expect(stream).toContain("You sent:");
      expect(stream).toContain("Backend refused");
      expectNoSecret("the playground's stream", stream);

      const search = await routeApiRequest(jsonPost("/api/catalogs/team/tool-search", { model: "gpt-5", agent: "build", query: selectAll }, token));
      expect(search.status).toBe(200);
      expectNoSecret("POST …/tool-search", await search.text());
      await expectNothingStoredOrShown(token);
    }
    expect(model.chatRequests.length).toBeGreaterThan(2);
    expectNoSecret("what the main model was sent", model.chatRequests);
  });
});
