import { beforeEach, describe, expect, it } from "vitest";
import * as applyRoute from "@/app/api/catalogs/[catalog]/apply/route";
import * as cloneRoute from "@/app/api/catalogs/[catalog]/clone/route";
import * as exportRoute from "@/app/api/catalogs/[catalog]/export/route";
import type { Db } from "@/db/client";
import { saveAgent } from "@/db/queries/agents";
import { listAudit } from "@/db/queries/audit";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { createMcpServer, getMcpServerConfig, listMcpServers } from "@/db/queries/mcp-servers";
import { saveRules } from "@/db/queries/rules";
import { syncSourceTools } from "@/db/queries/source-tools";
import { createCustomTool, findTool, updateTool } from "@/db/queries/tools";
import type { ApplySummary } from "@/lib/catalogs/apply-plan";
import { DEFAULT_MODEL_RULES } from "@/lib/rules/model-rules";
import { apiRequest, asInstanceAdmin, createTestToken, params, useFreshDatabase } from "./helpers";

const SCHEMA = { type: "object" as const, properties: { id: { type: "string" } }, required: ["id"] };

let db: Db;

/** Catalog "origin": custom tools, a built-in turned off, an agent, an override and a model rule of its own, an MCP server without secrets. */
async function origin(): Promise<void> {
  await createCatalog(db, { name: "Origin", id: "origin" }, "test");
  await createCustomTool(
    db,
    "origin",
    { name: "lookup_order", summary: "Find an order by id.", description: "Finds an order.", inputSchema: SCHEMA, tags: ["orders"] },
    "test",
  );
  await createCustomTool(db, "origin", { name: "refund", summary: "Refund an order.", description: "Refunds.", inputSchema: SCHEMA, enabled: false }, "test");
  await updateTool(db, "origin", "bash", { enabled: false, tags: ["shell"] }, "test");
  await saveAgent(
    db,
    "origin",
    {
      name: "support",
      mode: "primary",
      description: "Answers customers.",
      permissions: [{ pattern: "refund", action: "ask" }],
      baseTools: ["lookup_order", "read"],
    },
    "test",
  );
  await saveRules(
    db,
    "origin",
    {
      overrides: [{ tool: "lookup_order", models: ["claude-*"], summary: "Look an order up by its id." }],
      modelRules: [
        ...DEFAULT_MODEL_RULES,
        { id: "no-bash", name: "No shell for small models", include: ["*-mini"], exclude: [], enable: [], disable: ["bash"] },
      ],
    },
    "test",
  );
  await createMcpServer(db, "origin", { name: "docs", transport: "http", url: "https://mcp.example.com/mcp" }, "test");
}

async function exportText(catalog: string, format = "yaml", headers: Record<string, string> = {}): Promise<Response> {
  return exportRoute.GET(apiRequest(`/api/catalogs/${catalog}/export?format=${format}`, { headers }), params({ catalog }));
}

async function apply(catalog: string, text: string, query = "", headers: Record<string, string> = {}): Promise<{ status: number; body: ApplyAnswer }> {
  const response = await applyRoute.POST(
    apiRequest(`/api/catalogs/${catalog}/apply${query}`, { method: "POST", body: text, headers: { "content-type": "application/yaml", ...headers } }),
    params({ catalog }),
  );
  return { status: response.status, body: await response.json() };
}

/** The answer of POST …/apply: the plan, or the error. */
interface ApplyAnswer {
  plan: ApplySummary;
  error: { code: string; message: string; field?: string; problems?: { field: string; message: string }[] };
}

const revisionOf = async (catalog: string) => (await getCatalog(db, catalog)).revision;
const EMPTY = { created: [], changed: [], deleted: [] };

beforeEach(async () => {
  db = await useFreshDatabase();
  await origin();
  await createCatalog(db, { name: "Copy", id: "copy" }, "test");
});

describe("export and apply of a catalog file", () => {
  it("exports the whole catalog as YAML, and applying it to a new catalog changes it once, in one revision, then nothing", async () => {
    const response = await exportText("origin");
    expect(response.headers.get("content-type")).toContain("application/yaml");
    const text = await response.text();
    expect(text).toMatch(/^format: toolshed\.catalog\nversion: 2\n/);
    const before = await revisionOf("copy");

    const dry = await apply("copy", text, "?dryRun=1");
    expect(dry.status).toBe(200);
    expect(dry.body.plan.created).toEqual(["tools/lookup_order", "tools/refund", "mcpServers/docs", "agents/support"]);
    expect(dry.body.plan.changed).toEqual([
      { name: "tools/bash", fields: ["enabled", "tags"] },
      { name: "rules/modelRules", fields: ["no-bash"] },
      { name: "rules/overrides", fields: ["lookup_order claude-*"] },
    ]);
    expect(await revisionOf("copy")).toBe(before);
    expect(await findTool(db, "copy", "lookup_order")).toBeUndefined();

    const applied = await apply("copy", text);
    expect(applied).toEqual({ status: 200, body: dry.body });
    expect(await revisionOf("copy")).toBe(before + 1);
    const entries = (await listAudit(db, "copy")).filter((entry) => entry.revision === before + 1);
    expect(entries.map((entry) => `${entry.subjectKind}:${entry.subject}:${entry.action}`).sort()).toEqual(
      [
        "setting:mcp:docs:create",
        "tool:lookup_order:create",
        "tool:refund:create",
        "tool:bash:update",
        "agent:support:create",
        "model-rule:modelRules:update",
        "override:overrides:update",
      ].sort(),
    );
    expect(await findTool(db, "copy", "refund")).toMatchObject({ source: "custom", enabled: false, inputSchema: SCHEMA });
    expect((await listMcpServers(db, "copy")).map((server) => server.name)).toEqual(["docs"]);

    const again = await apply("copy", text);
    expect(again.body.plan).toMatchObject(EMPTY);
    expect(await revisionOf("copy")).toBe(before + 1);
    expect(await (await exportText("copy")).text()).toBe(text);
  });

  it("takes JSON the same way", async () => {
    const response = await exportText("origin", "json");
    expect(response.headers.get("content-type")).toContain("application/json");
    const text = await response.text();
    expect((await apply("copy", text, "", { "content-type": "application/json" })).status).toBe(200);
    expect((await apply("copy", text, "", { "content-type": "application/json" })).body.plan).toMatchObject(EMPTY);
    expect(await (await exportText("copy", "json")).text()).toBe(text);
  });

  it("deletes what the file's sections do not name only with prune", async () => {
    await createCustomTool(db, "copy", { name: "stale", summary: "Old.", description: "", inputSchema: SCHEMA }, "test");
    const text = await (await exportText("origin")).text();
    expect((await apply("copy", text)).body.plan.deleted).toEqual([]);
    expect(await findTool(db, "copy", "stale")).toBeDefined();
    const pruned = await apply("copy", text, "?prune=1");
    expect(pruned.body.plan).toMatchObject({ created: [], changed: [], deleted: ["tools/stale"] });
    expect(await findTool(db, "copy", "stale")).toBeUndefined();
  });

  it("reconfigures a server whose configuration changed, keeping its tools, and with prune deletes one the file drops, with its tools", async () => {
    await createMcpServer(db, "copy", { name: "docs", transport: "http", url: "https://old.example.com/mcp" }, "test");
    await createMcpServer(db, "copy", { name: "old", transport: "http", url: "https://old.example.com/other" }, "test");
    const tool = { summary: "Search.", description: "Searches.", inputSchema: { type: "object" as const }, tags: [] };
    await syncSourceTools(db, "copy", [{ source: "mcp", sourceRef: "docs", drafts: [{ ...tool, name: "docs__search" }] }], "test");
    await syncSourceTools(db, "copy", [{ source: "mcp", sourceRef: "old", drafts: [{ ...tool, name: "old__search" }] }], "test");
    const text = await (await exportText("origin")).text();
    const applied = await apply("copy", text, "?prune=1");
    expect(applied.body.plan.changed).toContainEqual({ name: "mcpServers/docs", fields: ["url"] });
    expect(applied.body.plan.deleted).toEqual(["mcpServers/old"]);
    expect(await getMcpServerConfig(db, "copy", "docs")).toEqual({ name: "docs", transport: "http", url: "https://mcp.example.com/mcp" });
    expect((await listMcpServers(db, "copy")).map((server) => server.name)).toEqual(["docs"]);
    expect(await findTool(db, "copy", "docs__search")).toBeDefined();
    expect(await findTool(db, "copy", "old__search")).toBeUndefined();
    const entries = (await listAudit(db, "copy")).filter((entry) => entry.subject.startsWith("mcp:"));
    expect(entries.map((entry) => `${entry.subject}:${entry.action}`)).toEqual(expect.arrayContaining(["mcp:docs:update", "mcp:old:delete"]));
  });

  it("asks an instance admin for a stdio server, and the operator's policy before writing it", async () => {
    const text = ["format: toolshed.catalog", "version: 2", "mcpServers:", "  - {name: local, transport: stdio, command: node, args: [server.mjs]}"].join("\n");
    const refused = await apply("copy", text);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("Only an instance admin may add stdio MCP servers");
    const policy = await apply("copy", text, "", await asInstanceAdmin());
    expect(policy.status).toBe(400);
    expect(policy.body.error.field).toBe("mcpServers.0.command");
    expect(await listMcpServers(db, "copy")).toEqual([]);
  });

  it("refuses an invalid file with every problem at its path, and stores nothing", async () => {
    const before = await revisionOf("copy");
    const text = [
      "format: toolshed.catalog",
      "version: 2",
      "tools:",
      "  - name: good_tool",
      "    summary: Fine.",
      "    description: ''",
      "    inputSchema: {type: object}",
      "  - name: bad tool",
      "    summary: Broken.",
      "    description: ''",
      "    inputSchema: {type: string}",
      "agents:",
      "  - {name: helper, mode: primary, description: '', permissions: [], baseTools: [nowhere]}",
      "mcpServers:",
      "  - {name: gh, transport: http, url: 'https://mcp.example.com/mcp', headers: {Authorization: 'Bearer ghp_literal'}}",
    ].join("\n");
    const refused = await apply("copy", text);
    expect(refused.status).toBe(400);
    expect(refused.body.error.problems?.map((problem) => problem.field)).toEqual(
      expect.arrayContaining(["tools.1.name", "tools.1.inputSchema.type", "mcpServers.0.headers.Authorization"]),
    );
    expect(JSON.stringify(refused.body)).not.toContain("ghp_literal");
    // The file alone is fine now; what it names is checked against the catalog.
    const unknownTool = await apply("copy", text.split("\n").slice(0, 7).concat(text.split("\n").slice(11, 13)).join("\n"));
    expect(unknownTool.status).toBe(400);
    expect(unknownTool.body.error.field).toBe("agents.0.baseTools.0");
    const syntax = await apply("copy", "tools: [\n");
    expect(syntax.status).toBe(400);
    expect(syntax.body.error.message).toMatch(/line \d+/);
    expect(await revisionOf("copy")).toBe(before);
    expect(await findTool(db, "copy", "good_tool")).toBeUndefined();
  });

  it("does not resolve secret references over HTTP: a server that needs one is refused, naming where", async () => {
    const text = [
      "format: toolshed.catalog",
      "version: 2",
      "mcpServers:",
      `  - {name: gh, transport: http, url: 'https://mcp.example.com/mcp', headers: {Authorization: 'Bearer \${env:TOOLSHED_SECRET_KEY}'}}`,
    ].join("\n");
    const refused = await apply("copy", text);
    expect(refused.status).toBe(400);
    expect(refused.body.error.field).toBe("mcpServers.0.headers.Authorization");
    expect(refused.body.error.message).toContain("command line");
    expect(await listMcpServers(db, "copy")).toEqual([]);
    // Planning needs no secret.
    expect((await apply("copy", text, "?dryRun=1")).body.plan.created).toEqual(["mcpServers/gh"]);
  });

  it("lets editors apply, MCP server changes only for admins, and viewers not at all", async () => {
    const text = await (await exportText("origin")).text();
    const viewer = { authorization: `Bearer ${await createTestToken(db, "read", "viewer")}` };
    const editor = { authorization: `Bearer ${await createTestToken(db, "write", "editor")}` };
    expect((await apply("copy", text, "", viewer)).status).toBe(403);
    expect((await exportText("origin", "yaml", viewer)).status).toBe(200);
    const refused = await apply("copy", text, "", editor);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("MCP servers");
    expect(await findTool(db, "copy", "lookup_order")).toBeUndefined();
    expect((await apply("copy", text.replace(/\nmcpServers:\n(?: {2}.*\n| {4}.*\n)*/, "\n"), "", editor)).status).toBe(200);
    expect(await findTool(db, "copy", "lookup_order")).toBeDefined();
  });
});

describe("cloning a catalog", () => {
  const clone = (catalog: string, body: unknown, headers: Record<string, string> = {}) =>
    cloneRoute.POST(
      apiRequest(`/api/catalogs/${catalog}/clone`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } }),
      params({ catalog }),
    );

  it("copies everything that defines the catalog, MCP secrets included, into a new one", async () => {
    await createMcpServer(
      db,
      "origin",
      { name: "gh", transport: "http", url: "https://mcp.example.com/gh", headers: { Authorization: "Bearer ghp_x" } },
      "test",
    );
    const response = await clone("origin", { id: "origin-copy", name: "Origin (copy)" });
    expect(response.status).toBe(201);
    expect((await response.json()).catalog).toMatchObject({ id: "origin-copy", name: "Origin (copy)", teamId: "default" });
    expect(await (await exportText("origin-copy")).text()).toBe(await (await exportText("origin")).text());
    expect(await getMcpServerConfig(db, "origin-copy", "gh")).toMatchObject({ headers: { Authorization: "Bearer ghp_x" } });
    expect((await clone("origin", { id: "origin-copy", name: "Again" })).status).toBe(409);
  });

  it("needs the admin role in the team it goes to", async () => {
    const editor = { authorization: `Bearer ${await createTestToken(db, "write", "editor")}` };
    expect((await clone("origin", { name: "Mine" }, editor)).status).toBe(403);
    // A team the caller is not in is one that does not exist, for it.
    expect((await clone("origin", { name: "Theirs", team: "elsewhere" })).status).toBe(404);
  });
});
