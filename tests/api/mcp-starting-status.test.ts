import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { closeMcpConnections, syncMcpServer } from "@/app/_services/sources";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { createMcpServer, type McpServerView } from "@/db/queries/mcp-servers";
import { openingMessage } from "@/lib/sources/mcp";
import { useEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { captureLog } from "../support/log-lines";
import { apiRequest, createTestToken, useFreshDatabase } from "./helpers";

/**
 * While an MCP server is being connected (its first start: a cold `npx -y` may take a minute), its
 * status says what the instance waits for, in the API and on the Sources page, and the log says
 * it once.
 */

const DEMO_SERVER = path.resolve("mcp-servers/demo-server.mjs");
// The pool reads the connect timeout when this file first uses it.
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${DEMO_SERVER} env=DEMO_MCP_HANG`, TOOLSHED_MCP_CONNECT_TIMEOUT_MS: "2500" });

const WAITING = 'Waiting for the MCP server "slow" to start and answer the MCP handshake (up to 2.5 s, TOOLSHED_MCP_CONNECT_TIMEOUT_MS).';

let db: Db;
beforeEach(async () => {
  db = await useFreshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, "tests");
  // A server that never answers the handshake: it stays "starting" until the deadline.
  await createMcpServer(db, "team", { name: "slow", transport: "stdio", command: process.execPath, args: [DEMO_SERVER], env: { DEMO_MCP_HANG: "1" } }, "tests");
});
afterAll(closeMcpConnections);

async function servers(token?: string): Promise<McpServerView[]> {
  const response = await routeApiRequest(apiRequest("/api/catalogs/team/mcp-servers", token ? { headers: { authorization: `Bearer ${token}` } } : {}));
  expect(response.status).toBe(200);
  return (await response.json()).servers;
}

describe("an MCP server being connected", () => {
  it("is 'starting' in the API, saying what it waits for and since when, and the log says it once", async () => {
    const log = captureLog();
    try {
      const before = Date.now();
      const sync = syncMcpServer(db, "team", "slow");
      await expect.poll(async () => (await servers())[0].status, { timeout: 2_000, interval: 50 }).toBe("starting");
      const [listed] = await servers();
      expect(listed.starting?.message).toBe(WAITING);
      expect(Date.parse(listed.starting!.since)).toBeGreaterThanOrEqual(before - 1);
      // A viewer reads it too: it names no secret.
      expect((await servers(await createTestToken(db, "read")))[0]).toMatchObject({ status: "starting", starting: { message: WAITING } });
      const one = await routeApiRequest(apiRequest("/api/catalogs/team/mcp-servers/slow"));
      expect((await one.json()).server).toMatchObject({ status: "starting", starting: { message: WAITING } });
      expect(log.lines.filter((line) => line.msg.includes("Waiting for the MCP server")).map((line) => line.msg)).toEqual([`MCP team/slow: ${WAITING}`]);

      // At the deadline it is in error, and no longer starting.
      expect((await sync).error).toMatch(/did not complete the MCP handshake within 2500 ms \(TOOLSHED_MCP_CONNECT_TIMEOUT_MS\)/);
      expect((await servers())[0]).toMatchObject({ status: "error", starting: null });
    } finally {
      log.restore();
    }
  });

  it("is never stored as starting: an instance that is not connecting it shows the stored status", async () => {
    expect((await servers())[0]).toMatchObject({ status: "never", starting: null });
  });
});

describe("openingMessage", () => {
  it("says that a first npx -y run downloads its package, for npx; an HTTP server only answers the handshake", () => {
    expect(openingMessage({ name: "files", transport: "stdio", command: "npx" }, 60_000)).toBe(
      'Waiting for the MCP server "files" to start and answer the MCP handshake (up to 60 s, TOOLSHED_MCP_CONNECT_TIMEOUT_MS); a first `npx -y` run downloads its package first.',
    );
    expect(openingMessage({ name: "files", transport: "stdio", command: "/usr/local/bin/npx" }, 60_000)).toContain("a first `npx -y` run");
    expect(openingMessage({ name: "remote", transport: "http" }, 60_000)).toBe(
      'Waiting for the MCP server "remote" to answer the MCP handshake (up to 60 s, TOOLSHED_MCP_CONNECT_TIMEOUT_MS).',
    );
  });
});
