import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { McpConnections, type McpProgress, type McpServerConfig, type McpStdioConfig } from "@/lib/sources/mcp";
import { processesMentioning, processMarker, processMentioning } from "../support/processes";
import { failure, useEnv } from "./helpers";

const DEMO_SERVER = path.resolve("mcp-servers/demo-server.mjs");
const PROGRESS_SERVER = path.resolve("tests/sources/fixtures/progress-server.mjs");

useEnv({
  TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${DEMO_SERVER} env=DEMO_MCP_HANG,DEMO_MCP_TOOLS; ${process.execPath} ${PROGRESS_SERVER}`,
  TOOLSHED_MCP_ALLOW_PRIVATE: "1",
});

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A demo server whose command line carries a unique marker, so that its processes can be counted. */
function markedDemo(label: string, env?: Record<string, string>): { marker: string; config: McpServerConfig } {
  const marker = processMarker(label);
  return { marker, config: { name: "notes", transport: "stdio", command: process.execPath, args: [DEMO_SERVER, marker], ...(env ? { env } : {}) } };
}

/** Until no process of the marked server is left (a closed stdio server gets SIGTERM, then SIGKILL after a grace period). */
const noProcessLeft = (marker: string) => expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 50 }).toEqual([]);

describe("McpConnections", () => {
  let connections: McpConnections | undefined;
  afterEach(async () => {
    await connections?.disconnectAll();
  });

  it("keeps one live stdio process, reports its death at once, and reconnects on the next use", async () => {
    const lost: string[] = [];
    connections = new McpConnections((key, reason) => lost.push(`${key}: ${reason}`));
    const { marker, config } = markedDemo("live");

    const first = await connections.list("demo/notes", config);
    expect(first.tools.map((tool) => tool.name)).toContain("notes__notes_search");
    const pid = processMentioning(marker);
    await connections.list("demo/notes", config);
    expect(processMentioning(marker)).toBe(pid);

    const result = await connections.call("demo/notes", config, "weather_forecast", { city: "Lyon" });
    expect(result.isError).toBe(false);

    process.kill(pid, "SIGKILL");
    await waitFor(() => lost.length === 1);
    expect(lost[0]).toMatch(/^demo\/notes: Disconnected: the server process exited/);
    expect(connections.isConnected("demo/notes")).toBe(false);

    const again = await connections.list("demo/notes", config);
    expect(again.tools.length).toBe(first.tools.length);
    expect(processMentioning(marker)).not.toBe(pid);
  });

  it("does not report a connection closed on purpose, and gives up on a hanging server at its deadline and ends it", async () => {
    const lost: string[] = [];
    const hanging = markedDemo("hang", { DEMO_MCP_HANG: "1" });
    // The healthy server gets the default deadline: a short one is for the hanging server only, and a
    // healthy start can take longer than that on a loaded machine.
    const healthy = new McpConnections((key) => lost.push(key));
    try {
      await healthy.list("a/notes", { name: "notes", transport: "stdio", command: process.execPath, args: [DEMO_SERVER] });
      await healthy.disconnect("a/notes");
    } finally {
      await healthy.disconnectAll();
    }
    connections = new McpConnections((key) => lost.push(key), { connectTimeoutMs: 1_500 });
    await expect(connections.list("a/hang", hanging.config)).rejects.toMatchObject({
      failure: "timeout",
      message: expect.stringMatching(/did not complete the MCP handshake within 1500 ms/),
    });
    expect(lost).toEqual([]);
    expect(connections.isConnected("a/hang")).toBe(false);
    // The hanging process does not outlive the failure.
    await noProcessLeft(hanging.marker);
  });

  it("starts one process for concurrent first uses of a server, and disconnectAll leaves none", async () => {
    const { marker, config } = markedDemo("concurrent");
    connections = new McpConnections(() => undefined);

    const listings = await Promise.all([
      connections.list("demo/notes", config),
      connections.list("demo/notes", config),
      connections.call("demo/notes", config, "weather_forecast", { city: "Lyon" }),
    ]);
    expect(listings[0].tools.length).toBe(5);
    expect(listings[1].tools).toEqual(listings[0].tools);
    expect(processesMentioning(marker)).toHaveLength(1);

    await connections.disconnectAll();
    expect(connections.isConnected("demo/notes")).toBe(false);
    await noProcessLeft(marker);
  });

  it("leaves no process when disconnectAll comes while the connection is still being opened", async () => {
    const { marker, config } = markedDemo("opening");
    connections = new McpConnections(() => undefined);

    const uses = [connections.list("demo/notes", config), connections.list("demo/notes", config)].map((use) => use.catch((error: unknown) => error));
    await connections.disconnectAll();
    // Both uses shared the one attempt, which was closed as soon as it was open.
    for (const outcome of await Promise.all(uses))
      expect(outcome).toMatchObject({ failure: "connection", message: expect.stringMatching(/closed while it was being opened/) });
    expect(connections.isConnected("demo/notes")).toBe(false);
    await noProcessLeft(marker);
  });

  it("replaces the connection once when the configuration changes while it is being opened", async () => {
    const { marker, config: base } = markedDemo("changed");
    connections = new McpConnections(() => undefined);
    const changed: McpServerConfig = { ...(base as McpStdioConfig), env: { DEMO_MCP_TOOLS: "notes_get" } };

    const [before, after, afterAgain] = await Promise.all([
      connections.list("demo/notes", base),
      connections.list("demo/notes", changed),
      connections.list("demo/notes", changed),
    ]);
    expect(before.tools.length).toBe(5);
    expect(after.tools.map((tool) => tool.mcpName)).toEqual(["notes_get"]);
    expect(afterAgain.tools).toEqual(after.tools);
    await expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 50 }).toHaveLength(1);
  });
});

/** The progress fixture with a unique marker, so that its process can be found. */
function markedProgressServer(): { marker: string; config: McpServerConfig } {
  const marker = processMarker("progress");
  return { marker, config: { name: "slow", transport: "stdio", command: process.execPath, args: [PROGRESS_SERVER, marker] } };
}

const textOf = (result: { content: { type: string; text?: string }[] }) => result.content.map((block) => block.text).join("\n");

describe("McpConnections: one call's trouble stays its own", () => {
  let connections: McpConnections | undefined;
  const folder = mkdtempSync(path.join(tmpdir(), "toolshed-abort-"));
  afterEach(async () => {
    await connections?.disconnectAll();
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("cancels only the call that timed out: the server is told, the process stays, a concurrent call succeeds", async () => {
    const lost: string[] = [];
    connections = new McpConnections((key, reason) => lost.push(`${key}: ${reason}`), { callTimeoutMs: 800 });
    const { marker, config } = markedProgressServer();
    await connections.list("demo/slow", config);
    const pid = processMentioning(marker);
    const seen = path.join(folder, "timed-out");

    const [timedOut, answered] = await Promise.all([
      failure(connections.call("demo/slow", config, "wait_for_abort", { file: seen })),
      connections.call("demo/slow", config, "sleep", { ms: 300 }),
    ]);
    expect(timedOut).toMatchObject({ failure: "timeout", message: 'The MCP server "slow" did not answer the call to wait_for_abort within 800 ms.' });
    expect(textOf(answered)).toBe("slept 300 ms");
    await expect
      .poll(() => existsSync(seen) && readFileSync(seen, "utf8"), { timeout: 2_000 })
      .toBe('aborted: The MCP server "slow" did not answer the call to wait_for_abort within 800 ms');
    expect(textOf(await connections.call("demo/slow", config, "sleep", { ms: 0 }))).toBe("slept 0 ms");
    expect(processMentioning(marker)).toBe(pid);
    expect(lost).toEqual([]);
  });

  it("gives up a call when its caller's signal aborts, telling the server, and keeps the process", async () => {
    connections = new McpConnections(() => undefined);
    const { marker, config } = markedProgressServer();
    await connections.list("demo/slow", config);
    const pid = processMentioning(marker);
    const seen = path.join(folder, "given-up");
    const caller = new AbortController();
    setTimeout(() => caller.abort("the user pressed stop"), 200);

    const given = await failure(connections.call("demo/slow", config, "wait_for_abort", { file: seen }, { signal: caller.signal }));
    expect(given).toMatchObject({
      failure: "cancelled",
      message: 'The caller gave up waiting for the MCP server "slow" to answer the call to wait_for_abort.',
    });
    await expect
      .poll(() => existsSync(seen) && readFileSync(seen, "utf8"), { timeout: 2_000 })
      .toBe('aborted: The caller gave up waiting for the MCP server "slow" to answer the call to wait_for_abort');
    expect(processMentioning(marker)).toBe(pid);
    // Already given up: nothing is sent.
    expect(await failure(connections.call("demo/slow", config, "sleep", { ms: 0 }, { signal: caller.signal }))).toMatchObject({ failure: "cancelled" });
  });

  it("masks the server's secrets in its progress messages", async () => {
    connections = new McpConnections(() => undefined);
    const { config } = markedProgressServer();
    const secret = "prog-secret-4c1d7e";
    const withSecret: McpServerConfig = { ...(config as McpStdioConfig), args: [...((config as McpStdioConfig).args ?? []), { value: secret, secret: true }] };
    const heard: McpProgress[] = [];
    await connections.call("demo/slow", withSecret, "count", { steps: 3, note: `token ${secret}` }, { onProgress: (progress) => heard.push(progress) });
    expect(heard.length).toBeGreaterThanOrEqual(2);
    for (const progress of heard) expect(progress.message).toBe(`step ${progress.progress}: token ********`);
  });

  it("keeps the process when a listing times out on a server that is only busy", async () => {
    const lost: string[] = [];
    connections = new McpConnections((key) => lost.push(key), { listTimeoutMs: 200, pingTimeoutMs: 5_000 });
    const { marker, config } = markedProgressServer();
    await connections.list("demo/slow", config);
    const pid = processMentioning(marker);

    const busy = connections.call("demo/slow", config, "block", { ms: 600 });
    expect(await failure(connections.list("demo/slow", config))).toMatchObject({
      failure: "timeout",
      message: 'The MCP server "slow" did not list its tools within 200 ms.',
    });
    expect(textOf(await busy)).toBe("blocked for 600 ms");
    expect(processMentioning(marker)).toBe(pid);
    expect(lost).toEqual([]);
  });

  it("passes the server's progress notifications on, in order", async () => {
    connections = new McpConnections(() => undefined);
    const { config } = markedProgressServer();
    const heard: McpProgress[] = [];
    const result = await connections.call("demo/slow", config, "count", { steps: 3 }, { onProgress: (progress) => heard.push(progress) });
    expect(textOf(result)).toBe("counted to 3");
    // The SDK handles a notification a tick after it reads it, and a response at once: the last
    // notification, read with the response, may find the call already answered and be dropped.
    expect(heard.length).toBeGreaterThanOrEqual(2);
    expect(heard).toEqual([1, 2, 3].slice(0, heard.length).map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
  });

  it("restarts a server that answers not even a ping after a timeout, and says so to every call it had not answered", async () => {
    const lost: string[] = [];
    connections = new McpConnections((key) => lost.push(key), { callTimeoutMs: 600, pingTimeoutMs: 300 });
    const { marker, config } = markedProgressServer();
    await connections.list("demo/slow", config);
    const pid = processMentioning(marker);

    const waiting = failure(connections.call("demo/slow", config, "sleep", { ms: 5_000 }));
    const wedging = failure(connections.call("demo/slow", config, "block", { ms: 30_000 }));
    const wedged =
      /^The MCP server "slow" stopped answering \(not even a ping within 300 ms\) and was restarted: its process was ended and started again, and the calls it had not answered were given up\.$/;
    expect((await wedging).message).toMatch(wedged);
    expect((await waiting).message).toMatch(wedged);

    await expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 50 }).toEqual([expect.any(Number)]);
    expect(processMentioning(marker)).not.toBe(pid);
    expect(textOf(await connections.call("demo/slow", config, "sleep", { ms: 0 }))).toBe("slept 0 ms");
    // Restarted, so never lost.
    expect(lost).toEqual([]);
  });
});

/**
 * An MCP server over Streamable HTTP with sessions, which `stop` ends as a crashed host would, and
 * `forget` as a restarted one: an unknown session is then answered `status` (404, or 400 as the
 * SDK's single-session server answers before its initialize); `forgetAlways` forgets each session
 * as soon as it is made.
 */
async function startHttpServer(): Promise<{ url: string; stop: () => Promise<void>; forget: (status?: number) => void; forgetAlways: () => void }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let unknownSession = 404;
  let keepsSessions = true;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (typeof id === "string" && (!transport || !keepsSessions)) {
      response.writeHead(unknownSession).end("unknown session");
      return;
    }
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (session) => void transports.set(session, transport!),
      });
      const server = new McpServer({ name: "remote", version: "1.0.0" });
      server.registerTool("hello", { description: "Says hello." }, async () => ({ content: [{ type: "text", text: "hello" }] }));
      await server.connect(transport);
    }
    await transport.handleRequest(request, response);
  };
  const http: HttpServer = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    stop: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
    forget: (status = 404) => {
      unknownSession = status;
      transports.clear();
    },
    forgetAlways: () => {
      keepsSessions = false;
    },
  };
}

/**
 * A legacy MCP server over HTTP+SSE (the 2024-11-05 transport, the SDK's SSEServerTransport): GET
 * /sse opens the event stream, which names the endpoint the client posts its messages to.
 */
async function startLegacySseServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const transports = new Map<string, SSEServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      transports.set(transport.sessionId, transport);
      const server = new McpServer({ name: "legacy", version: "1.0.0" });
      server.registerTool("hello", { description: "Says hello." }, async () => ({ content: [{ type: "text", text: "hello from sse" }] }));
      await server.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (request.method === "POST" && url.pathname === "/messages" && transport) return void (await transport.handlePostMessage(request, response));
    response.writeHead(request.method === "POST" ? 405 : 404).end();
  };
  const http: HttpServer = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`,
    stop: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe("McpConnections over HTTP", () => {
  let connections: McpConnections | undefined;
  afterEach(async () => {
    await connections?.disconnectAll();
  });

  it("reports the server lost as soon as a request cannot reach it", async () => {
    const lost: string[] = [];
    connections = new McpConnections((key, reason) => lost.push(`${key}: ${reason}`));
    const remote = await startHttpServer();
    const config: McpServerConfig = { name: "remote", transport: "http", url: remote.url };
    expect(textOf(await connections.call("demo/remote", config, "hello", {}))).toBe("hello");
    expect(connections.isConnected("demo/remote")).toBe(true);

    await remote.stop();
    const unreachable = await failure(connections.call("demo/remote", config, "hello", {}));
    expect(unreachable.failure).toBe("connection");
    expect(lost).toEqual([`demo/remote: Disconnected: ${unreachable.message}`]);
    expect(connections.isConnected("demo/remote")).toBe(false);
  });

  it.each([404, 400])("sends a request again in a new session when a restarted server answers %i for the old one: no failure, never lost", async (status) => {
    const lost: string[] = [];
    connections = new McpConnections((key, reason) => lost.push(`${key}: ${reason}`));
    const remote = await startHttpServer();
    const config: McpServerConfig = { name: "remote", transport: "http", url: remote.url };
    await connections.call("demo/remote", config, "hello", {});
    remote.forget(status);
    try {
      // Two requests in flight when the session is found gone: both are sent again, neither fails.
      const both = await Promise.all([connections.call("demo/remote", config, "hello", {}), connections.call("demo/remote", config, "hello", {})]);
      expect(both.map(textOf)).toEqual(["hello", "hello"]);
      expect((await connections.list("demo/remote", config)).tools.map((tool) => tool.name)).toEqual(["remote__hello"]);
      expect(lost).toEqual([]);
      expect(connections.isConnected("demo/remote")).toBe(true);
    } finally {
      await remote.stop();
    }
  });

  it("reports the server lost when it refuses a new session too, and connects afresh at the next use", async () => {
    const lost: string[] = [];
    connections = new McpConnections((key, reason) => lost.push(`${key}: ${reason}`));
    const remote = await startHttpServer();
    const config: McpServerConfig = { name: "remote", transport: "http", url: remote.url };
    await connections.call("demo/remote", config, "hello", {});
    remote.forgetAlways();
    try {
      const refused = await failure(connections.call("demo/remote", config, "hello", {}));
      expect(refused.message).toBe('The MCP server "remote" answered HTTP 404 (check the URL\'s path).');
      expect(lost).toEqual([`demo/remote: Disconnected: ${refused.message}`]);
      expect(connections.isConnected("demo/remote")).toBe(false);
    } finally {
      await remote.stop();
    }
  });

  it("talks to a legacy HTTP+SSE server at its /sse URL: Streamable HTTP is refused, so its event stream is used", async () => {
    connections = new McpConnections(() => undefined);
    const legacy = await startLegacySseServer();
    const config: McpServerConfig = { name: "legacy", transport: "http", url: legacy.url };
    try {
      expect((await connections.list("demo/legacy", config)).tools.map((tool) => tool.name)).toEqual(["legacy__hello"]);
      expect(textOf(await connections.call("demo/legacy", config, "hello", {}))).toBe("hello from sse");
      expect(connections.isConnected("demo/legacy")).toBe(true);
    } finally {
      await legacy.stop();
    }
  });

  it("says what both transports answered when a URL is neither a Streamable HTTP nor a legacy SSE server", async () => {
    connections = new McpConnections(() => undefined);
    const legacy = await startLegacySseServer();
    const config: McpServerConfig = { name: "nothing", transport: "http", url: legacy.url.replace(/\/sse$/, "/nothing") };
    try {
      const refused = await failure(connections.list("demo/nothing", config));
      expect(refused.message).toMatch(/^The MCP server "nothing" answered HTTP 405\. Tried as a legacy HTTP\+SSE server too: .*404/);
    } finally {
      await legacy.stop();
    }
  });
});
