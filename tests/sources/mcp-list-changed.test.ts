import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { callMcpServerTool, disconnectMcpServer, LIST_CHANGED_SYNC_DELAY_MS } from "@/app/_services/sources";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { loadCatalogState } from "@/db/queries/catalog-state";
import { getTool, listTools } from "@/db/queries/tools";
import { computeToolList } from "@/lib/pipeline/tool-list";
import { McpConnections } from "@/lib/sources/mcp";
import { asInstanceAdmin, jsonRequest, params, useFreshDatabase } from "../api/helpers";
import { useEnv } from "./helpers";

const CHANGING_SERVER = path.resolve("tests/fixtures/mcp/changing-server.mjs");
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${CHANGING_SERVER}`, TOOLSHED_MCP_ALLOW_PRIVATE: "1" });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds, for at most `ms` (the brief's bound on an upstream change reaching the catalog). */
async function within<T>(ms: number, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await sleep(50);
  }
}

const namesOf = async (db: Db) => (await listTools(db, "team")).map((tool) => tool.name);
const offered = async (db: Db) => computeToolList(await loadCatalogState(db, "team"), { model: "gpt-5", agent: "build" }).final.map((tool) => tool.name);

/** Counts the listings of servers (every sync lists), and the most that ran at once. */
function countListings() {
  const original = McpConnections.prototype.list;
  const counts = { listings: 0, running: 0, mostAtOnce: 0 };
  vi.spyOn(McpConnections.prototype, "list").mockImplementation(async function (this: McpConnections, ...args) {
    counts.listings++;
    counts.running++;
    counts.mostAtOnce = Math.max(counts.mostAtOnce, counts.running);
    try {
      // Slower than the server alone, so that notifications come while a sync lists.
      await sleep(150);
      return await original.apply(this, args);
    } finally {
      counts.running--;
    }
  });
  return counts;
}

/** A Streamable HTTP MCP server with sessions (its notifications go on the session's event stream) whose tool `grow` adds `sprout`. */
async function changingHttpServer() {
  const mcp = new McpServer({ name: "changing-http", version: "1.0.0" });
  mcp.registerTool("grow", { description: "Adds the tool sprout." }, () => {
    mcp.registerTool("sprout", { description: "A tool added while the server runs." }, () => ({ content: [] }));
    return { content: [{ type: "text", text: "grown" }] };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
  await mcp.connect(transport);
  const http = createServer((request, response) => void transport.handleRequest(request, response));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await mcp.close();
      http.closeAllConnections();
      http.close();
    },
  };
}

describe("an MCP server's tools/list_changed", () => {
  let db: Db;
  beforeEach(async () => {
    db = await useFreshDatabase();
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
    const body = { name: "changing", transport: "stdio", command: process.execPath, args: [CHANGING_SERVER] };
    const added = await serversRoute.POST(jsonRequest("POST", body, await asInstanceAdmin()), params({ catalog: "team" }));
    expect(added.status).toBe(201);
    expect(await namesOf(db)).toEqual(expect.arrayContaining(["changing__ping", "changing__grow"]));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await disconnectMcpServer("team", "changing");
    await disconnectMcpServer("team", "web");
  });

  it("syncs the server at once: a tool it adds is in the catalog within 2 s, held back as new until an editor approves it", async () => {
    await callMcpServerTool(db, "team", "changing", "grow", {});
    expect(
      await within(
        2_000,
        () => namesOf(db),
        (found) => found.includes("changing__sprout"),
      ),
    ).toContain("changing__sprout");
    expect((await getTool(db, "team", "changing__sprout")).heldBack).toBe("new");
    expect(await offered(db)).not.toContain("changing__sprout");
  });

  it("a definition it changes (here its output schema) is taken in at once and held back until approved", async () => {
    expect(await offered(db)).toContain("changing__ping");
    await callMcpServerTool(db, "team", "changing", "reword", {});
    const ping = await within(
      2_000,
      () => getTool(db, "team", "changing__ping"),
      (tool) => tool.heldBack !== undefined,
    );
    expect(ping.heldBack).toBe("changed");
    expect(ping.description).toBe("Answers pong, loudly.");
    expect(ping.meta?.outputSchema).toMatchObject({ type: "object", properties: { reply: { type: "string" } } });
    expect(await offered(db)).not.toContain("changing__ping");
  });

  it("a burst of notifications is one sync", async () => {
    const counts = countListings();
    await callMcpServerTool(db, "team", "changing", "trickle", { prefix: "burst", count: 8 });
    await within(
      2_000,
      () => namesOf(db),
      (found) => found.includes("changing__burst_8"),
    );
    await sleep(LIST_CHANGED_SYNC_DELAY_MS + 400);
    expect(await namesOf(db)).toEqual(expect.arrayContaining(Array.from({ length: 8 }, (_, index) => `changing__burst_${index + 1}`)));
    expect(counts.listings).toBe(1);
  });

  it("notifications spread over a while never sync the server twice at once, and the last change is always taken in", async () => {
    const counts = countListings();
    await callMcpServerTool(db, "team", "changing", "trickle", { prefix: "slow", count: 6, gapMs: 120 });
    const names = await within(
      3_000,
      () => namesOf(db),
      (found) => found.includes("changing__slow_6"),
    );
    expect(names).toEqual(expect.arrayContaining(Array.from({ length: 6 }, (_, index) => `changing__slow_${index + 1}`)));
    await sleep(LIST_CHANGED_SYNC_DELAY_MS + 400);
    expect(counts.mostAtOnce).toBe(1);
    expect(counts.listings).toBeGreaterThan(1);
    expect(counts.listings).toBeLessThan(6);
  });

  it("from a Streamable HTTP server too, on its session's event stream", async () => {
    const upstream = await changingHttpServer();
    try {
      const body = { name: "web", transport: "http", url: upstream.url };
      expect((await serversRoute.POST(jsonRequest("POST", body, await asInstanceAdmin()), params({ catalog: "team" }))).status).toBe(201);
      expect(await namesOf(db)).toContain("web__grow");
      await callMcpServerTool(db, "team", "web", "grow", {});
      expect(
        await within(
          2_000,
          () => namesOf(db),
          (found) => found.includes("web__sprout"),
        ),
      ).toContain("web__sprout");
      expect((await getTool(db, "team", "web__sprout")).heldBack).toBe("new");
    } finally {
      await disconnectMcpServer("team", "web");
      await upstream.close();
    }
  });
});
