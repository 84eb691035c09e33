import type { Server as HttpServer } from "node:http";
import { resolve } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { McpConnections, type McpConnectionTimeouts, type McpServerConfig } from "../../lib/sources/mcp";

/** One connection per call, closed afterwards: each test sees a server from its start. */
async function withConnection<T>(timeouts: Partial<McpConnectionTimeouts>, work: (connections: McpConnections) => Promise<T>): Promise<T> {
  const connections = new McpConnections(() => undefined, timeouts);
  try {
    return await work(connections);
  } finally {
    await connections.disconnectAll();
  }
}

const listMcpTools = (config: McpServerConfig, timeouts: Partial<McpConnectionTimeouts> = {}) =>
  withConnection(timeouts, (connections) => connections.list(config.name, config));

const callMcpTool = (config: McpServerConfig, mcpName: string, args: Record<string, unknown>) =>
  withConnection({}, (connections) => connections.call(config.name, config, mcpName, args));
import { secretForms } from "../../lib/secrets";
import { validateToolDraft } from "../../lib/tools/validate";
import { processesMentioning, processMarker } from "../support/processes";
import { failure, useEnv } from "./helpers";
import { serveStatelessMcp } from "../support/stateless-mcp-server";

const DEMO_SERVER = resolve("mcp-servers/demo-server.mjs");

// The test servers: the demo server as this process's node runs it, a shell wrapper, a missing
// command (to see how a failed spawn is reported); and the HTTP servers, which listen on 127.0.0.1.
const LEAKY_SERVER = resolve("tests/sources/fixtures/leaky-server.mjs");

useEnv({
  TOOLSHED_MCP_STDIO_COMMANDS: [
    `${process.execPath} ${DEMO_SERVER} env=DEMO_MCP_TOOLS,DEMO_MCP_HANG,DEMO_MCP_CRASH,DEMO_MCP_TOKEN`,
    `${process.execPath} ${LEAKY_SERVER} env=TOKEN,PIN,PASS`,
    "sh -c env=DEMO_MCP_HANG",
    "toolshed-no-such-command",
  ].join(";"),
  TOOLSHED_MCP_ALLOW_PRIVATE: "1",
});

function demo(env: Record<string, string> = {}, marker?: string): McpServerConfig {
  return { name: "demo", transport: "stdio", command: process.execPath, args: marker ? [DEMO_SERVER, marker] : [DEMO_SERVER], env };
}

describe("MCP over stdio, against the shipped demo server", () => {
  it("lists the demo server's tools in the unified format", async () => {
    const { serverInfo, tools, problems } = await listMcpTools(demo());
    expect(serverInfo).toEqual({ name: "toolshed-demo", version: "1.0.0", title: "Toolshed demo server" });
    expect(problems).toEqual([]);
    expect(tools.map((tool) => [tool.name, tool.mcpName])).toEqual([
      ["demo__notes_search", "notes_search"],
      ["demo__notes_get", "notes_get"],
      ["demo__notes_create", "notes_create"],
      ["demo__notes_delete", "notes_delete"],
      ["demo__weather_forecast", "weather_forecast"],
    ]);
    for (const tool of tools) expect(validateToolDraft(tool)).toEqual([]);
    const forecast = tools.find((tool) => tool.mcpName === "weather_forecast");
    expect(forecast).toMatchObject({ source: "mcp", server: "demo", title: "Weather forecast", annotations: { readOnlyHint: true } });
    expect(forecast?.inputSchema).not.toHaveProperty("$schema");
    expect(forecast?.inputSchema.required).toEqual(["city"]);
  });

  it("lists only the tools the server offers", async () => {
    const { tools } = await listMcpTools(demo({ DEMO_MCP_TOOLS: "notes_get,weather_forecast" }));
    expect(tools.map((tool) => tool.mcpName)).toEqual(["notes_get", "weather_forecast"]);
  });

  it("times out on a server that never answers, and kills it", async () => {
    const marker = processMarker("hang");
    // Long enough for the server to start even on a loaded machine, so that it is really hanging.
    const limit = 1_500;
    const error = await failure(listMcpTools(demo({ DEMO_MCP_HANG: "1" }, marker), { connectTimeoutMs: limit }));
    // The deadline gave up (not a crash, not a refusal), and says which deadline; how long that took is the benchmark's business.
    expect(error.failure).toBe("timeout");
    expect(error.message).toMatch(/did not complete the MCP handshake within 1500 ms/);
    // It was running and hanging, as its stderr shows, when the deadline came.
    expect(error.message).toMatch(/hanging on purpose/);
    // It does not survive the failure (SIGTERM at once, SIGKILL after a grace period).
    await expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 20 }).toEqual([]);
  });

  it("also kills a hung server started through a wrapper that does not pass signals on", async () => {
    const marker = processMarker("wrapped");
    // The shell stays as the parent (it has more to do after node), like npx or uvx would.
    const wrapped: McpServerConfig = {
      name: "wrapped",
      transport: "stdio",
      command: "sh",
      args: ["-c", `"${process.execPath}" "${DEMO_SERVER}" ${marker}; echo "server exited" >&2`],
      env: { DEMO_MCP_HANG: "1" },
    };
    const error = await failure(listMcpTools(wrapped, { connectTimeoutMs: 1_500 }));
    expect(error.failure).toBe("timeout");
    expect(error.message).toMatch(/hanging on purpose/);
    // Neither the shell nor the node under it (both mention the marker) survives; a zombie's command line is empty.
    await expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 20 }).toEqual([]);
  });

  it("reports a command that does not exist", async () => {
    const error = await failure(listMcpTools({ name: "ghost", transport: "stdio", command: "toolshed-no-such-command" }));
    expect(error.failure).toBe("spawn");
    expect(error.status).toBe(502);
    expect(error.message).toBe('Could not start the MCP server "ghost": the command "toolshed-no-such-command" was not found (check the command and PATH).');
  });

  it("reports a server that exits at start-up, with what it wrote to stderr, secrets masked", async () => {
    const error = await failure(listMcpTools(demo({ DEMO_MCP_CRASH: "1", DEMO_MCP_TOKEN: "tok-123456" })));
    expect(error.failure).toBe("connection");
    expect(error.message).toMatch(/exited or closed its output before the MCP server "demo" answered/);
    expect(error.message).toMatch(/simulated crash at start-up/);
    // Env values are secrets: masked even where the server itself printed them.
    expect(error.message).toContain("DEMO_MCP_TOKEN=********");
    expect(error.message).not.toContain("tok-123456");
  });

  it("masks every secret in stderr in every encoding, 3-character values and secret arguments included", async () => {
    const secrets = { TOKEN: "env-canary-Zq9", PIN: "731", PASS: "p@ss w/rd+?" };
    const error = await failure(
      listMcpTools({
        name: "leaky",
        transport: "stdio",
        command: process.execPath,
        args: [LEAKY_SERVER, "public-arg", { value: "arg-canary-K2", secret: true }],
        env: secrets,
      }),
    );
    expect(error.message).toMatch(/The server wrote to stderr: plain=\*{8} b64=\*{8}/);
    expect(error.message).toContain("plain=public-arg");
    for (const value of [...Object.values(secrets), "arg-canary-K2"]) {
      for (const form of secretForms(value)) expect(error.message, `${value}: ${form}`).not.toContain(form);
    }
  });

  it("rejects an invalid configuration before starting anything", async () => {
    const error = await failure(listMcpTools({ name: "Bad Name", transport: "stdio", command: "node" }));
    expect(error.failure).toBe("config");
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^Invalid MCP server configuration: A server name is/);
  });

  it("calls a tool and returns its content", async () => {
    const result = await callMcpTool(demo(), "weather_forecast", { city: "Lyon", days: 2 });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ city: "Lyon", units: "metric" });
    expect(result.structuredContent?.forecast).toHaveLength(2);
    expect(result.content[0]).toMatchObject({ type: "text" });
    // Deterministic demo data: a second process gives the same forecast.
    expect(await callMcpTool(demo(), "weather_forecast", { city: "Lyon", days: 2 })).toEqual(result);
  });

  it("gives a note created after a deletion an id of its own, leaving the others as they were", async () => {
    const config = demo();
    await withConnection({}, async (connections) => {
      const call = (mcpName: string, args: Record<string, unknown>) => connections.call(config.name, config, mcpName, args);
      await call("notes_delete", { id: "note-2" });
      const created = await call("notes_create", { title: "New", body: "A new note." });
      expect(created.structuredContent).toEqual({ id: "note-5" });
      expect((await call("notes_get", { id: "note-4" })).structuredContent).toMatchObject({ title: "Recipe: lentil soup" });
    });
  });

  it("passes a tool's own failure through as an error result", async () => {
    const result = await callMcpTool(demo(), "notes_get", { id: "note-99" });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: 'No note has the id "note-99". Use notes_search to find one.' }]);
  });
});

/** A Streamable HTTP server that pages its tool list two at a time and requires a bearer token. */
function startHttpServer(options: { hangOnList?: boolean; hangOnConnect?: boolean } = {}): Promise<{ url: string; http: HttpServer }> {
  const tools = [
    { name: "alpha", description: "First.", inputSchema: { type: "object", properties: {} } },
    { name: "beta", description: "Second.", inputSchema: { type: "object", properties: { n: { type: "integer" } } } },
    { name: "broken", description: "Scalar root.", inputSchema: { type: "string" } },
    { name: "gamma.delta", description: "Third page.", inputSchema: { type: "object" } },
    { name: "echo", description: "Echoes.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  ];
  return serveStatelessMcp(async (request, response) => {
    if (options.hangOnConnect) return;
    if (request.headers.authorization !== "Bearer s3cret") {
      response.writeHead(401).end("missing token");
      return;
    }
    const server = new Server({ name: "paged", version: "2.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (list) => {
      if (options.hangOnList) await new Promise(() => {});
      const start = Number(list.params?.cursor ?? 0);
      const next = start + 2;
      return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
    });
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      if (call.params.name !== "echo") throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${call.params.name}`);
      return { content: [{ type: "text", text: String(call.params.arguments?.text ?? "") }] };
    });
    return server;
  });
}

describe("MCP over Streamable HTTP", () => {
  const servers: HttpServer[] = [];
  async function serve(options?: Parameters<typeof startHttpServer>[0]) {
    const { url, http } = await startHttpServer(options);
    servers.push(http);
    return url;
  }
  afterAll(() => {
    for (const http of servers) {
      http.closeAllConnections();
      http.close();
    }
  });
  const remote = (url: string, token = "s3cret"): McpServerConfig => ({
    name: "remote",
    transport: "http",
    url,
    headers: { Authorization: `Bearer ${token}` },
  });

  it("follows page cursors and reports a broken tool without losing the others", async () => {
    const { serverInfo, tools, problems } = await listMcpTools(remote(await serve()));
    expect(serverInfo).toEqual({ name: "paged", version: "2.0.0" });
    expect(tools.map((tool) => tool.name)).toEqual(["remote__alpha", "remote__beta", "remote__gamma_delta", "remote__echo"]);
    expect(problems).toEqual([
      { mcpName: "broken", message: 'The root of an input schema must have type "object". (inputSchema.type)', errors: expect.any(Array) },
    ]);
  });

  it("sends the configured headers and explains a refusal", async () => {
    const url = await serve();
    const error = await failure(listMcpTools(remote(url, "wrong")));
    expect(error.failure).toBe("connection");
    // The status and a hint, never the body the server sent with it.
    expect(error.message).toBe(`The MCP server "remote" answered HTTP 401 (check the server's headers, e.g. Authorization).`);
    expect(error.message).not.toContain("missing token");
  });

  it("calls a tool over HTTP, and reports the server's refusal of a call", async () => {
    const url = await serve();
    const result = await callMcpTool(remote(url), "echo", { text: "hello" });
    expect(result).toEqual({ content: [{ type: "text", text: "hello" }], isError: false });
    const error = await failure(callMcpTool(remote(url), "missing", {}));
    expect(error.failure).toBe("protocol");
    expect(error.message).toBe('The MCP server "remote" answered with error -32602: Unknown tool missing.');
  });

  it("times out when the server hangs on the handshake or on listing", async () => {
    const handshake = await failure(listMcpTools(remote(await serve({ hangOnConnect: true })), { connectTimeoutMs: 300 }));
    expect(handshake.failure).toBe("timeout");
    expect(handshake.message).toBe('The MCP server "remote" did not complete the MCP handshake within 300 ms (TOOLSHED_MCP_CONNECT_TIMEOUT_MS).');
    const listing = await failure(listMcpTools(remote(await serve({ hangOnList: true })), { listTimeoutMs: 300 }));
    expect(listing.message).toBe('The MCP server "remote" did not list its tools within 300 ms.');
  });

  it("reports an unreachable address", async () => {
    const url = await serve();
    servers.pop()?.close();
    const error = await failure(listMcpTools(remote(url)));
    expect(error.failure).toBe("connection");
    expect(error.message).toMatch(/^Could not reach the MCP server "remote" at http:\/\/127\.0\.0\.1:\d+\/mcp: ECONNREFUSED\.$/);
  });
});
