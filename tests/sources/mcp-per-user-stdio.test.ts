import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyCatalogFile } from "@/app/_services/catalog-code";
import { connectionsOf, connectWithSecret } from "@/app/_services/mcp-connections";
import { callMcpServerTool, disconnectMcpServer } from "@/app/_services/sources";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { createMcpServer } from "@/db/queries/mcp-servers";
import { mcpUserCredentials } from "@/db/tables";
import { jsonRequest, useFreshDatabase } from "../api/helpers";
import { signedInPerson } from "../api/sessions";
import { processesMentioning, processMarker } from "../support/processes";
import { useEnv } from "./helpers";

/** A stdio server marked per person runs one process per person, each with that person's own secret in its environment. */

useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} mcp-servers/demo-server.mjs env=DEMO_MCP_TOKEN` });

let db: Db;
const marker = processMarker("per-user-stdio");

const principalOf = async (email: string) => (await signedInPerson(db, email)).principal;

/** The value of a variable in a running process's environment (Linux). */
function environmentOf(pid: number, name: string): string | undefined {
  const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
  return entries.find((entry) => entry.startsWith(`${name}=`))?.slice(name.length + 1);
}

const notes = { name: "notes", transport: "stdio" as const, command: process.execPath, args: ["mcp-servers/demo-server.mjs", marker] };

beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  await createMcpServer(db, "team", { ...notes, credentials: { mode: "per-user-secret", env: "DEMO_MCP_TOKEN" } }, "test");
});

afterEach(() => disconnectMcpServer("team", "notes"));

describe("a per-person stdio server", () => {
  it("runs a process of each person's own, with their secret, and never one for a caller without it", async () => {
    const ada = await principalOf("ada@example.com");
    const bob = await principalOf("bob@example.com");
    await connectWithSecret(db, ada, "team", "notes", "ada-token-123");
    await connectWithSecret(db, bob, "team", "notes", "bob-token-456");
    for (const principal of [ada, bob]) {
      const result = await callMcpServerTool(db, "team", "notes", "notes_search", { query: "x" }, { principal });
      expect(result.isError).toBe(false);
    }
    const tokens = processesMentioning(marker).map((pid) => environmentOf(pid, "DEMO_MCP_TOKEN"));
    expect(tokens.sort()).toEqual(["ada-token-123", "bob-token-456"]);
    const none = await callMcpServerTool(db, "team", "notes", "notes_search", { query: "x" }, {});
    expect(none.isError).toBe(true);
    expect(processesMentioning(marker)).toHaveLength(2);
  });

  it("stops people's processes and forgets their secrets when a catalog file makes the server shared", async () => {
    const ada = await principalOf("ada@example.com");
    await connectWithSecret(db, ada, "team", "notes", "ada-token-123");
    expect((await callMcpServerTool(db, "team", "notes", "notes_search", { query: "x" }, { principal: ada })).isError).toBe(false);
    expect(processesMentioning(marker)).toHaveLength(1);

    const admin = { ...ada, instanceAdmin: true };
    const shared = { format: "toolshed.catalog", version: 2, mcpServers: [notes] };
    await applyCatalogFile(db, "team", shared, { dryRun: false, prune: false }, { principal: admin, access: "admin", actor: "ada" });
    expect(processesMentioning(marker)).toEqual([]);
    expect(await db.select().from(mcpUserCredentials)).toEqual([]);
    expect(await connectionsOf(db, ada)).toEqual([]);
    // Its calls now run on the shared process, which has nobody's secret.
    expect((await callMcpServerTool(db, "team", "notes", "notes_search", { query: "x" }, { principal: ada })).isError).toBe(false);
    expect(processesMentioning(marker).map((pid) => environmentOf(pid, "DEMO_MCP_TOKEN"))).toEqual([undefined]);
  });
});
