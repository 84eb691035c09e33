/**
 * Tool calls in the metrics, counted where the MCP gateway makes them: by catalog, tool and how
 * they ended (ok, upstream_error for an error answer or a failure, timeout, refused, with names
 * the catalog does not hold under one label), with the server's time; and each MCP server's up
 * gauge, gone with the server.
 */
import type { Server as HttpServer } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeGatewaySessions } from "@/app/_services/mcp-gateway";
import { addMcpServer, removeMcpServer } from "@/app/_services/sources";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/policy";
import { apiRequest, createTestToken, useFreshDatabase } from "../api/helpers";
import { useEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { startToolshedHttpServer, type ToolshedHttpServer } from "../support/toolshed-http-server";
import { serveStatelessMcp } from "../support/stateless-mcp-server";

const TOOLS = ["answer", "fail", "slow"];

/** The test's upstream: answers, answers with an error, or takes longer than the call timeout. */
function startUpstream(): Promise<{ url: string; http: HttpServer }> {
  return serveStatelessMcp(async (_request, _response) => {
    const server = new Server({ name: "upstream", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: TOOLS.map((name) => ({ name, description: `The ${name} tool.`, inputSchema: { type: "object", properties: {} } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      if (call.params.name === "answer") return { content: [{ type: "text", text: "42" }] };
      if (call.params.name === "fail") return { isError: true, content: [{ type: "text", text: "no" }] };
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return { content: [{ type: "text", text: "too late" }] };
    });
    return server;
  });
}

useEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1", TOOLSHED_MCP_CALL_TIMEOUT_MS: "500" });

let db: Db;
let toolshed: ToolshedHttpServer;
let upstream: { url: string; http: HttpServer };
let metricsToken: string;

beforeAll(async () => {
  db = await useFreshDatabase();
  expect(
    (
      await routeApiRequest(
        apiRequest("/api/catalogs", { method: "POST", body: JSON.stringify({ name: "Team" }), headers: { "content-type": "application/json" } }),
      )
    ).status,
  ).toBe(201);
  upstream = await startUpstream();
  toolshed = await startToolshedHttpServer();
  metricsToken = await createTestToken(db, "metrics", "prometheus");
});

afterAll(async () => {
  closeGatewaySessions();
  await toolshed.close();
  upstream.http.closeAllConnections();
  upstream.http.close();
});

async function metricsText(): Promise<string> {
  const response = await routeApiRequest(apiRequest("/api/metrics", { headers: { authorization: `Bearer ${metricsToken}` } }));
  expect(response.status).toBe(200);
  return response.text();
}

describe("tool calls in the metrics", () => {
  it("count each call by catalog, tool and outcome, time those that reached the server, and show the server up until it is deleted", async () => {
    const operator: Principal = { kind: "token", id: "test", name: "test", teamId: "default", scope: "instance" };
    expect((await addMcpServer(db, "team", { name: "up", transport: "http", url: upstream.url }, operator)).error).toBeUndefined();
    expect(await metricsText()).toContain('toolshed_mcp_server_up{catalog="team",server="up"} 1');

    const token = await createTestToken(db, "read", "agent");
    const client = new Client({ name: "metrics-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${toolshed.url}/api/catalogs/team/mcp?model=gpt-5&agent=build`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect((await client.callTool({ name: "up__answer", arguments: {} })).isError ?? false).toBe(false);
      expect((await client.callTool({ name: "up__fail", arguments: {} })).isError).toBe(true);
      expect((await client.callTool({ name: "up__slow", arguments: {} })).isError).toBe(true);
      // Refused as tool errors the model reads, the same whether the name exists or not.
      expect((await client.callTool({ name: "made_up_tool_1", arguments: {} })).isError).toBe(true);
      expect((await client.callTool({ name: "made_up_tool_2", arguments: {} })).isError).toBe(true);
    } finally {
      await client.close();
    }

    const text = await metricsText();
    expect(text).toContain('toolshed_tool_calls_total{catalog="team",tool="up__answer",outcome="ok"} 1');
    expect(text).toContain('toolshed_tool_calls_total{catalog="team",tool="up__fail",outcome="upstream_error"} 1');
    expect(text).toContain('toolshed_tool_calls_total{catalog="team",tool="up__slow",outcome="timeout"} 1');
    expect(text).toContain('toolshed_tool_calls_total{catalog="team",tool="(not in the catalog)",outcome="refused"} 2');
    expect(text).not.toContain("made_up_tool");
    expect(text).toContain('toolshed_tool_call_duration_seconds_count{catalog="team",tool="up__answer",outcome="ok"} 1');
    expect(text).not.toMatch(/toolshed_tool_call_duration_seconds_count\{[^}]*outcome="refused"/);
    // The MCP gateway's own requests, by route pattern.
    expect(text).toMatch(/toolshed_http_requests_total\{method="POST",route="\/api\/catalogs\/\{catalog\}\/mcp",status="200"\} \d+/);

    await removeMcpServer(db, "team", "up", "tests");
    expect(await metricsText()).not.toContain('toolshed_mcp_server_up{catalog="team",server="up"}');
  });
});
