import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  disconnectMcpServer,
  isMcpServerSyncing,
  MCP_SYNC_LEASE,
  startPeriodicSync,
  stopPeriodicSync,
  syncMcpServer,
  syncMcpServersPeriodically,
} from "@/app/_services/sources";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { takeLease } from "@/db/queries/leases";
import { createMcpServer, deleteMcpServer, getMcpServer } from "@/db/queries/mcp-servers";
import { useFreshDatabase } from "../api/helpers";
import { captureLog, WARN_LEVEL } from "../support/log-lines";
import { processesMentioning, processMarker } from "../support/processes";
import { useEnv, withEnv } from "./helpers";

const DEMO_SERVER = path.resolve("mcp-servers/demo-server.mjs");
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${DEMO_SERVER} env=DEMO_MCP_TOKEN`, TOOLSHED_MCP_ALLOW_PRIVATE: "1" });

/** An MCP server over HTTP whose tools/list answers only when the test opens the gate; it counts the listings. */
function gatedServer() {
  const counts = { lists: 0, running: 0, maxRunning: 0 };
  let open!: () => void;
  let gate = new Promise<void>((resolve) => (open = resolve));
  const http: HttpServer = createServer((request, response) => {
    const server = new Server({ name: "gated", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      counts.lists++;
      counts.maxRunning = Math.max(counts.maxRunning, ++counts.running);
      await gate;
      counts.running--;
      return { tools: [{ name: "ping", description: "Answers pong.", inputSchema: { type: "object", properties: {} } }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on("close", () => void server.close());
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  const url = new Promise<string>((done) => http.listen(0, "127.0.0.1", () => done(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
  return {
    url,
    counts,
    /** Lets every waiting and later listing through. */
    release: () => open(),
    /** Makes later listings wait again. */
    hold: () => {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    close: () => {
      open();
      http.closeAllConnections();
      http.close();
    },
  };
}

describe("MCP syncs of one server", () => {
  let db: Db;
  const servers: ReturnType<typeof gatedServer>[] = [];
  beforeEach(async () => {
    db = await useFreshDatabase();
    await createCatalog(db, { name: "Team", id: "team" }, "tests");
  });
  afterEach(async () => {
    stopPeriodicSync();
    for (const name of ["slow", "notes", "secretive"]) await disconnectMcpServer("team", name);
  });
  afterAll(async () => {
    for (const server of servers) server.close();
  });

  async function addGated(name = "slow") {
    const server = gatedServer();
    servers.push(server);
    await createMcpServer(db, "team", { name, transport: "http", url: await server.url }, "tests");
    return server;
  }

  it("never overlap: periodic ticks while a sync runs start no second one, and the next tick after it syncs again", async () => {
    const server = await addGated();
    const first = syncMcpServer(db, "team", "slow");
    await vi.waitFor(() => expect(server.counts.lists).toBe(1));
    expect(isMcpServerSyncing("team", "slow")).toBe(true);

    // Many ticks while the sync hangs on the server: each of them passes the server over.
    startPeriodicSync(db, 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    stopPeriodicSync();
    expect(await syncMcpServersPeriodically(db)).toEqual({ synced: [], skipped: ["team/slow"] });
    expect(server.counts.lists).toBe(1);

    server.release();
    expect(await first).toMatchObject({ added: ["slow__ping"] });
    expect(isMcpServerSyncing("team", "slow")).toBe(false);
    expect(await syncMcpServersPeriodically(db)).toEqual({ synced: ["team/slow"], skipped: [] });
    expect(server.counts).toMatchObject({ lists: 2, maxRunning: 1 });
    expect(await getMcpServer(db, "team", "slow")).toMatchObject({ status: "connected", registeredCount: 1 });
  });

  it("start no round while one runs, and give the sync's lease up when a round running at the stop has ended, not before", async () => {
    const server = await addGated();
    startPeriodicSync(db, 20);
    await vi.waitFor(() => expect(server.counts.lists).toBe(1), { timeout: 10_000 });
    stopPeriodicSync();
    // The round waits on the server, holding the lease: another instance cannot take it yet.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await takeLease(db, MCP_SYNC_LEASE, "another-instance", 60_000)).toBe(false);
    server.release();
    await vi.waitFor(async () => expect(await takeLease(db, MCP_SYNC_LEASE, "another-instance", 60_000)).toBe(true), { timeout: 10_000 });
    expect(server.counts).toMatchObject({ lists: 1, maxRunning: 1 });
  });

  it("queue a sync asked for while another runs: it runs after it, not beside it", async () => {
    const server = await addGated();
    const first = syncMcpServer(db, "team", "slow");
    const second = syncMcpServer(db, "team", "slow");
    await vi.waitFor(() => expect(server.counts.lists).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.counts.lists).toBe(1);
    server.release();
    expect(await first).toMatchObject({ added: ["slow__ping"] });
    expect(await second).toMatchObject({ added: [], updated: [] });
    expect(server.counts).toMatchObject({ lists: 2, maxRunning: 1 });
  });

  it("a server deleted meanwhile: the sync is a not-found error, its process is stopped, and a periodic round passes it over", async () => {
    const marker = processMarker("deleted");
    await createMcpServer(db, "team", { name: "notes", transport: "stdio", command: process.execPath, args: [DEMO_SERVER, marker] }, "tests");
    expect((await syncMcpServer(db, "team", "notes")).error).toBeUndefined();
    expect(processesMentioning(marker)).toHaveLength(1);

    await deleteMcpServer(db, "team", "notes", "tests");
    await expect(syncMcpServer(db, "team", "notes")).rejects.toMatchObject({ code: "not_found", status: 404 });
    await expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 50 }).toEqual([]);
    expect(await syncMcpServersPeriodically(db)).toEqual({ synced: [], skipped: [] });
  });

  it("a stored configuration that cannot be read (another secret key) is the sync's error, not a rejection, in a periodic round too", async () => {
    await createMcpServer(
      db,
      "team",
      { name: "secretive", transport: "stdio", command: process.execPath, args: [DEMO_SERVER], env: { DEMO_MCP_TOKEN: "tok-secret" } },
      "tests",
    );
    const log = captureLog();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      await withEnv({ TOOLSHED_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") }, async () => {
        const result = await syncMcpServer(db, "team", "secretive");
        expect(result.error).toMatch(/could not be decrypted/);
        expect(await syncMcpServersPeriodically(db)).toEqual({ synced: ["team/secretive"], skipped: [] });
        startPeriodicSync(db, 20);
        await new Promise((resolve) => setTimeout(resolve, 200));
        stopPeriodicSync();
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      // Its health is recorded all the same: down, and why.
      expect(await getMcpServer(db, "team", "secretive")).toMatchObject({ status: "error", lastError: expect.stringMatching(/could not be decrypted/) });
      expect(log.lines.filter((line) => line.level >= WARN_LEVEL)).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      log.restore();
    }
  });
});
