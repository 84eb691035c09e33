import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ElicitRequestSchema,
  ListToolsRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalog } from "@/db/queries/catalogs";
import { createMcpServer } from "@/db/queries/mcp-servers";
import { freshDatabase, urlOfFreshDatabase } from "../support/fresh-database";
import { createTestToken } from "./helpers";

/**
 * Two Toolshed instances, each a process of its own (its own caches, pool and MCP connections),
 * on one PostgreSQL database, as behind a load balancer: what one writes, the other answers at
 * its very next request; the periodic MCP sync runs in one of them; an MCP connection one of them
 * loses is its own affair. PostgreSQL only (vitest project "postgres"): two processes share no
 * in-memory SQLite database.
 */

interface Instance {
  url: string;
}

/** Generous: each instance compiles the server's modules as it starts (tsx), slow on a busy machine. */
const STARTUP_TIMEOUT_MS = 120_000;
/** The instances' periodic MCP sync: a round every this many milliseconds. */
const SYNC_INTERVAL_MS = 200;
/** The MCP server's one tool, as the catalog names it (server__tool). */
const MCP_TOOL = "counting__ping";

/**
 * An MCP server over HTTP (one tool, "ping") that keeps a session per client connection, so that
 * it can tell the two instances' connections apart: it counts each session's tools/list calls,
 * and can end a session and refuse new ones (the connection of one instance is gone for good).
 */
async function sessionCountingMcpServer() {
  const listings = new Map<string, number>();
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let refusingSessions = false;
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = transports.get(sessionId);
      if (transport) return transport.handleRequest(request, response);
      response.writeHead(404).end();
      return;
    }
    if (refusingSessions) {
      response.writeHead(503).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    const server = new Server({ name: "counting", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      if (extra.sessionId) listings.set(extra.sessionId, (listings.get(extra.sessionId) ?? 0) + 1);
      return { tools: [{ name: "ping", description: "Answers pong.", inputSchema: { type: "object", properties: {} } }] };
    });
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: "text", text: "pong" }] }));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => void answer(request, response));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    /** tools/list calls by session. */
    listings,
    /** Ends the session (its next request is answered 404) and refuses new ones. */
    cut(sessionId: string) {
      refusingSessions = true;
      transports.delete(sessionId);
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** Polls until `check` holds (or the test's timeout ends it). */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS / 2));
}

/** The processes started, stopped after the file's tests (also one that failed to start). */
const started: (() => Promise<void>)[] = [];

/** tests/support/toolshed-instance.ts on the database at `databaseUrl`; resolves once it answers. */
function startInstance(databaseUrl: string, name: string): Promise<Instance> {
  const noSources = mkdtempSync(path.join(os.tmpdir(), "toolshed-no-sources-"));
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/toolshed-instance.ts"], {
    env: {
      ...process.env,
      TOOLSHED_DATABASE_URL: databaseUrl,
      TOOLSHED_MCP_SYNC_INTERVAL_MS: String(SYNC_INTERVAL_MS),
      TOOLSHED_MCP_ALLOW_PRIVATE: "1",
      TOOLSHED_PLUGINS_DIR: noSources,
      TOOLSHED_SKILLS_DIR: noSources,
      TOOLSHED_AGENTS_DIR: noSources,
    },
    // Its log goes to the test's, where a failure's details are.
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  started.push(stop);
  let stdout = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start in time`)), STARTUP_TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${name} exited with ${code}`));
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^listening (\S+)$/m.exec(stdout)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url });
    });
  });
}

// Two processes compile the server's modules as they first meet them (tsx): slow on a busy machine.
describe("two instances on one PostgreSQL database", { timeout: 60_000 }, () => {
  let a: Instance;
  let b: Instance;
  let token: string;
  let mcp: Awaited<ReturnType<typeof sessionCountingMcpServer>>;

  beforeAll(async () => {
    const db = await freshDatabase();
    await createCatalog(db, { name: "Team", id: "team" }, "tests");
    // Configured before the instances start, which connect to it then.
    mcp = await sessionCountingMcpServer();
    await createMcpServer(db, "team", { name: "counting", transport: "http", url: mcp.url }, "tests", { TOOLSHED_MCP_ALLOW_PRIVATE: "1" });
    token = await createTestToken(db, "admin", "two-instances");
    const url = urlOfFreshDatabase(db);
    [a, b] = await Promise.all([startInstance(url, "A"), startInstance(url, "B")]);
  }, 2 * STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(started.map((stop) => stop()));
    await mcp?.close();
  });

  async function send(instance: Instance, method: string, pathname: string, body?: unknown) {
    const response = await fetch(new URL(pathname, instance.url), {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname} on ${instance.url}: ${response.status} ${text}`);
    return JSON.parse(text);
  }

  const toolList = async (instance: Instance) =>
    (await send(instance, "POST", "/api/catalogs/team/tool-list", { model: "gpt-5", agent: "build" })) as {
      revision: number;
      tools: { name: string; description: string }[];
    };
  const toolNamed = async (instance: Instance, name: string) => (await toolList(instance)).tools.find((tool) => tool.name === name);
  const toolSearch = (instance: Instance, query: string) => send(instance, "POST", "/api/catalogs/team/tool-search", { model: "gpt-5", agent: "build", query });
  const revision = async (instance: Instance) => ((await send(instance, "GET", "/api/catalogs/team")) as { catalog: { revision: number } }).catalog.revision;

  /** Both instances report the same revision, in the catalog and in their tool lists; returns it. */
  async function sameRevision(): Promise<number> {
    const reported = await Promise.all([revision(a), revision(b), toolList(a).then((list) => list.revision), toolList(b).then((list) => list.revision)]);
    expect(new Set(reported).size).toBe(1);
    return reported[0];
  }

  it("lists on B, at its next request, a tool created and then edited through A", async () => {
    expect(await toolNamed(b, "release_notes")).toBeUndefined();
    const before = await sameRevision();

    await send(a, "POST", "/api/catalogs/team/tools", {
      name: "release_notes",
      summary: "Writes release notes.",
      description: "Writes the release notes of a version.",
      inputSchema: { type: "object" },
    });
    expect(await toolNamed(b, "release_notes")).toMatchObject({ description: "Writes the release notes of a version." });

    await send(a, "PATCH", "/api/catalogs/team/tools/release_notes", { description: "Drafts the release notes of a version from its changes." });
    expect(await toolNamed(b, "release_notes")).toMatchObject({ description: "Drafts the release notes of a version from its changes." });
    expect(await sameRevision()).toBe(before + 2);
  });

  it("refuses on B, at once, a tool disabled through A", async () => {
    await send(a, "POST", "/api/catalogs/team/tools", {
      name: "deploy_preview",
      summary: "Deploys a preview.",
      description: "Deploys a branch to a preview environment.",
      inputSchema: { type: "object" },
    });
    expect((await toolSearch(b, "select:deploy_preview")).tools.map((tool: { name: string }) => tool.name)).toEqual(["deploy_preview"]);

    await send(a, "PATCH", "/api/catalogs/team/tools/deploy_preview", { enabled: false });
    const refused = await toolSearch(b, "select:deploy_preview");
    expect(refused.tools).toEqual([]);
    expect(refused.rejected).toEqual([{ name: "deploy_preview", reason: "not registered: disabled in the catalog" }]);
    await sameRevision();
  });

  it("uses on B, at its next tool list, an agent saved on A", async () => {
    expect(await toolNamed(b, "grep")).toBeDefined();
    const { agent } = await send(a, "GET", "/api/catalogs/team/agents/build");
    await send(a, "PUT", "/api/catalogs/team/agents/build", { ...agent, permissions: [...agent.permissions, { pattern: "grep", action: "deny" }] });
    expect(await toolNamed(b, "grep")).toBeUndefined();
    await sameRevision();
  });

  it("follows on B an import that A runs as a job, to its result", async () => {
    const tools = Array.from({ length: 1_500 }, (_, index) => ({
      name: `ledger_${index}`,
      description: `Reads entry ${index} of the ledger with its amounts.`,
      parameters: { type: "object", properties: { id: { type: "string" } } },
    }));
    const { job } = await send(a, "POST", "/api/catalogs/team/import", { tools });
    expect(job.url).toMatch(/\/import-jobs\//);
    let followed: { status: string; result?: { created: string[] } };
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      followed = (await send(b, "GET", job.url)).job;
    } while (followed.status === "running");
    expect(followed.status).toBe("done");
    expect(followed.result?.created).toHaveLength(1_500);
    expect(await toolNamed(b, "ledger_1499")).toMatchObject({ description: "Reads entry 1499 of the ledger with its amounts." });
  });

  it("follows on B an evaluation that A runs, to the result A reports", async () => {
    const tools = [
      { name: "refund_payment", summary: "Refunds a card payment to the customer." },
      { name: "book_room", summary: "Books a meeting room for a time slot." },
    ];
    for (const tool of tools) await send(a, "POST", "/api/catalogs/team/tools", { ...tool, description: tool.summary, inputSchema: { type: "object" } });
    // Many cases, so that the run is still running while B reads it.
    const cases = Array.from({ length: 2_000 }, (_, index) =>
      index % 2 === 0
        ? { query: `refund the card payment of order ${index}`, expected: ["refund_payment"] }
        : { query: `book a meeting room for team ${index}`, expected: ["book_room"] },
    );
    const { evaluation } = await send(a, "POST", "/api/catalogs/team/evaluations", { cases, k: 3, selector: "local", name: "across" });
    const seen: { status: string; progress: { done: number; total: number }; error: string | null }[] = [];
    let followed: (typeof seen)[number];
    for (;;) {
      followed = (await send(b, "GET", evaluation.url)).evaluation;
      seen.push(followed);
      if (followed.status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen[0]).toMatchObject({ status: "running", progress: { total: 2_000 } });
    expect(followed).toMatchObject({ status: "done", error: null, progress: { done: 2_000, total: 2_000 } });
    expect((await send(a, "GET", evaluation.url)).evaluation).toEqual(followed);
    const listed = (await send(b, "GET", "/api/catalogs/team/evaluations?name=across")).evaluations;
    expect(listed).toEqual([expect.objectContaining({ id: evaluation.id, status: "done" })]);
  });

  it("serves one MCP gateway session from either instance: opened on A, searched on B, called and approved across both, told of changes on B's stream", async () => {
    await send(a, "POST", "/api/catalogs/team/agents", {
      name: "asking",
      mode: "primary",
      description: "Asks before each ping.",
      permissions: [
        { pattern: "*", action: "allow" },
        { pattern: MCP_TOOL, action: "ask" },
      ],
      baseTools: ["read", "grep"],
    });
    // As a load balancer without sticky sessions would: each request goes where `postTo` says, the client's stream to B.
    let postTo = a;
    const seen: { instance: string; method: string; answer: boolean }[] = [];
    const balanced = (url: string | URL, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const instance = method === "GET" ? b : postTo;
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      seen.push({ instance: instance === a ? "A" : "B", method, answer: body !== undefined && !("method" in body) });
      const target = new URL(String(url));
      target.host = new URL(instance.url).host;
      return fetch(target, init);
    };
    const client = new Client({ name: "two-instances", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    client.setRequestHandler(ElicitRequestSchema, () => {
      postTo = b;
      return { action: "accept" };
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/api/catalogs/team/mcp?model=gpt-5&agent=asking`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: balanced,
    });
    await client.connect(transport);
    const text = (result: unknown) => ((result as CallToolResult).content as { text: string }[])[0].text;
    try {
      postTo = b;
      const found = JSON.parse(text(await client.callTool({ name: "ToolSearch", arguments: { query: `select:${MCP_TOOL}` } })));
      expect(found.tools.map((tool: { name: string }) => tool.name)).toEqual([MCP_TOOL]);
      postTo = a;
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain(MCP_TOOL);

      // Asked on A's stream, answered through B, called on A.
      expect(text(await client.callTool({ name: MCP_TOOL, arguments: {} }))).toBe("pong");
      expect(seen).toContainEqual({ instance: "B", method: "POST", answer: true });

      await send(a, "PATCH", "/api/catalogs/team/tools/grep", { enabled: false });
      await eventually(() => changes > 0);
      expect(seen.filter((request) => request.method === "GET").map((request) => request.instance)).toEqual(["B"]);

      // Ended through B: A no longer knows it.
      const sessionId = transport.sessionId!;
      postTo = b;
      await transport.terminateSession();
      const afterEnd = await fetch(new URL("/api/catalogs/team/mcp?model=gpt-5&agent=asking", a.url), {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: {} }),
      });
      expect(afterEnd.status).toBe(404);
    } finally {
      await client.close();
      await send(a, "PATCH", "/api/catalogs/team/tools/grep", { enabled: true });
    }
  });

  describe("their MCP server", () => {
    const listed = () => [...mcp.listings.values()].reduce((sum, count) => sum + count, 0);
    const names = async (instance: Instance) => (await toolList(instance)).tools.map((tool) => tool.name);

    /** The sessions that listed the server's tools during the next `rounds` listings. */
    async function sessionsListingIn(rounds: number): Promise<string[]> {
      const before = new Map(mcp.listings);
      const total = listed();
      await eventually(() => listed() >= total + rounds);
      return [...mcp.listings].filter(([session, count]) => count > (before.get(session) ?? 0)).map(([session]) => session);
    }

    it("is synced once a round across both instances: by one of them, round after round", async () => {
      expect(await sessionsListingIn(5)).toHaveLength(1);
    });

    it("lost on one instance, leaves the revision and the other instance's tool list as they were", async () => {
      const [syncing] = await sessionsListingIn(2);
      const lists = new Map<Instance, string[]>();
      for (const instance of [a, b]) lists.set(instance, await names(instance));
      for (const list of lists.values()) expect(list).toContain(MCP_TOOL);
      const before = await sameRevision();

      mcp.cut(syncing);
      // The instance that syncs finds at its next round that it cannot reach the server any more.
      await eventually(async () => !(await names(a)).includes(MCP_TOOL) || !(await names(b)).includes(MCP_TOOL));
      const [lost, other] = (await names(a)).includes(MCP_TOOL) ? [b, a] : [a, b];
      expect(await names(other)).toEqual(lists.get(other));
      expect(await revision(lost)).toBe(before);
      expect(await revision(other)).toBe(before);
    });
  });
});
