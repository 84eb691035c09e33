import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeGatewaySessions } from "@/app/_services/mcp-gateway";
import { disconnectMcpServer } from "@/app/_services/sources";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as reviewsRoute from "@/app/api/catalogs/[catalog]/definition-reviews/route";
import * as syncRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/sync/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as rulesRoute from "@/app/api/catalogs/[catalog]/rules/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { loadCatalogState } from "@/db/queries/catalog-state";
import { getTool } from "@/db/queries/tools";
import { computeToolList } from "@/lib/pipeline/tool-list";
import type { DefinitionOverride } from "@/lib/rules/overrides";
import { asInstanceAdmin, createTestToken, jsonRequest, params, useFreshDatabase } from "../api/helpers";
import { useGatewayClients } from "../support/gateway-clients";
import { useEnv } from "./helpers";

// Per-tool overrides against a real stdio MCP server whose tools a JSON file defines: the server
// redefines its tool, the catalog syncs it, and the override still applies on top of the new definition.
const SERVER = path.resolve("tests/fixtures/mcp/defined-tools-server.mjs");
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${SERVER}` });

const team = params({ catalog: "team" });
const file = path.join(mkdtempSync(path.join(tmpdir(), "toolshed-overrides-")), "tools.json");

const UPSTREAM = {
  name: "search",
  description: "Searches notes.",
  inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1, default: 10 } }, required: ["query"] },
  annotations: { readOnlyHint: false },
};
const OVERRIDE: DefinitionOverride = {
  tool: "shop__search",
  models: [],
  description: "Search the team's notes (catalog wording).",
  defaults: { limit: 25 },
  annotations: { readOnlyHint: true, title: "Note search" },
};

const defineUpstream = (tools: unknown[]) => writeFileSync(file, JSON.stringify(tools));
const saveOverrides = async (overrides: DefinitionOverride[]) => rulesRoute.PUT(jsonRequest("PUT", { overrides }), team);
const finalSearch = async (db: Db) => {
  const list = computeToolList(await loadCatalogState(db, "team"), { model: "gpt-5", agent: "reader" });
  return { tool: list.final.find((tool) => tool.name === "shop__search"), trace: list.trace.flatMap((entry) => entry.changed) };
};

/** Syncs the server now (as its admin would), and approves the definition it changed (the tool is pinned, lib/tools/pinning.ts). */
async function syncAndApprove(db: Db) {
  const synced = await syncRoute.POST(jsonRequest("POST", undefined, await asInstanceAdmin()), params({ catalog: "team", name: "shop" }));
  expect(synced.status).toBe(200);
  expect((await getTool(db, "team", "shop__search")).heldBack).toBe("changed");
  const { reviews } = await (await reviewsRoute.GET(jsonRequest("GET"), team)).json();
  const approval = { tool: "shop__search", decision: "approve", digest: reviews[0].digest };
  expect((await reviewsRoute.POST(jsonRequest("POST", approval), team)).status).toBe(200);
}

const connect = useGatewayClients("overrides-test");

let db: Db;
let readToken: string;
let client: Client;
beforeEach(async () => {
  db = await useFreshDatabase();
  readToken = await createTestToken(db, "read");
  defineUpstream([UPSTREAM]);
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  const server = { name: "shop", transport: "stdio", command: process.execPath, args: [SERVER, file] };
  expect((await serversRoute.POST(jsonRequest("POST", server, await asInstanceAdmin()), team)).status).toBe(201);
  const agent = {
    name: "reader",
    mode: "primary",
    description: "Searches notes.",
    permissions: [{ pattern: "*", action: "allow" }],
    baseTools: ["shop__search"],
  };
  expect((await agentsRoute.POST(jsonRequest("POST", agent), team)).status).toBe(201);
});
afterEach(async () => {
  await disconnectMcpServer("team", "shop");
});

/** The gateway's tools/list for the agent that has the tool among its base tools, through the SDK's client. */
async function gatewaySearch() {
  client = await connect(readToken, "model=gpt-5&agent=reader");
  return (await client.listTools()).tools.find((tool) => tool.name === "shop__search");
}

describe("per-tool overrides of an MCP tool", () => {
  it("apply to the tool list and the gateway's tools/list, and survive a re-sync that changes the tool: the override on top, the upstream change underneath", async () => {
    expect((await saveOverrides([OVERRIDE])).status).toBe(200);
    const before = await finalSearch(db);
    expect(before.tool?.description).toBe(OVERRIDE.description);
    expect(before.tool?.inputSchema.properties?.limit).toEqual({ type: "integer", minimum: 1, default: 25 });
    const listed = await gatewaySearch();
    expect(listed).toMatchObject({
      title: "Note search",
      description: OVERRIDE.description,
      annotations: { readOnlyHint: true, title: "Note search" },
      inputSchema: { properties: { limit: { default: 25 } } },
    });

    // ToolSearch answers with the overridden definition too.
    const found = await client.callTool({ name: "ToolSearch", arguments: { query: "select:shop__search" } });
    expect(JSON.parse((found.content as { text: string }[])[0].text).tools).toEqual([
      { name: "shop__search", description: OVERRIDE.description, inputSchema: before.tool?.inputSchema },
    ]);

    // A call that leaves the parameter out gets the override's default, as listed; one that gives it keeps its own.
    const argumentsSent = async (args: Record<string, unknown>) =>
      ((await client.callTool({ name: "shop__search", arguments: args })).content as { text: string }[])[1].text;
    expect(JSON.parse(await argumentsSent({ query: "release" }))).toEqual({ limit: 25, query: "release" });
    expect(JSON.parse(await argumentsSent({ query: "release", limit: 3 }))).toEqual({ limit: 3, query: "release" });

    // The server is upgraded: new wording, a new parameter, a tighter limit, other hints.
    defineUpstream([
      {
        ...UPSTREAM,
        description: "Searches notes and their attachments.",
        inputSchema: {
          ...UPSTREAM.inputSchema,
          properties: { ...UPSTREAM.inputSchema.properties, tag: { type: "string" }, limit: { type: "integer", maximum: 100 } },
        },
        annotations: { readOnlyHint: false, openWorldHint: true },
      },
    ]);
    await syncAndApprove(db);

    const registry = await getTool(db, "team", "shop__search");
    expect(registry.description).toBe("Searches notes and their attachments.");
    expect(registry.meta?.annotations).toEqual({ readOnlyHint: false, openWorldHint: true });
    expect((await (await rulesRoute.GET(jsonRequest("GET"), team)).json()).rules.overrides).toEqual([OVERRIDE]);
    const after = await finalSearch(db);
    expect(after.tool?.description).toBe(OVERRIDE.description);
    expect(after.tool?.inputSchema.properties).toEqual({
      query: { type: "string" },
      limit: { type: "integer", maximum: 100, default: 25 },
      tag: { type: "string" },
    });
    closeGatewaySessions();
    expect(await gatewaySearch()).toMatchObject({
      title: "Note search",
      description: OVERRIDE.description,
      annotations: { readOnlyHint: true, openWorldHint: true, title: "Note search" },
      inputSchema: { properties: { limit: { type: "integer", maximum: 100, default: 25 }, tag: { type: "string" } } },
    });
  });

  it("keeps a stored override whose parameter the server then drops: the tool is served without it, and the trace says why", async () => {
    expect((await saveOverrides([OVERRIDE])).status).toBe(200);
    defineUpstream([{ ...UPSTREAM, inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } }]);
    await syncAndApprove(db);
    expect((await (await rulesRoute.GET(jsonRequest("GET"), team)).json()).rules.overrides).toEqual([OVERRIDE]);
    const { tool, trace } = await finalSearch(db);
    expect(tool?.inputSchema.properties).toEqual({ query: { type: "string" } });
    expect(tool?.description).toBe(OVERRIDE.description);
    expect(trace).toContainEqual({
      name: "shop__search",
      reason: 'catalog override for every model: default of limit not applied: Tool "shop__search" has no parameter "limit" (its parameters: query).',
    });
  });

  it("refuses an override naming an unknown parameter or with a default the parameter's schema refuses, naming the tool and field, and keeps what was stored", async () => {
    expect((await saveOverrides([OVERRIDE])).status).toBe(200);
    const refused = await saveOverrides([
      { ...OVERRIDE, defaults: { limt: 5 } },
      { ...OVERRIDE, models: ["gpt-*"], defaults: { limit: 0 } },
    ]);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.problems).toEqual([
      { field: "overrides.0.defaults.limt", message: 'Tool "shop__search" has no parameter "limt" (its parameters: query, limit).' },
      {
        field: "overrides.1.defaults.limit",
        message: 'The default 0 for "limit" of tool "shop__search" does not match the parameter\'s schema: must be >= 1.',
      },
    ]);
    expect((await (await rulesRoute.GET(jsonRequest("GET"), team)).json()).rules.overrides).toEqual([OVERRIDE]);
  });
});
