import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { reloadLocalSources } from "@/app/_services/local-sources";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as serverRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as rulesRoute from "@/app/api/catalogs/[catalog]/rules/route";
import * as reloadRoute from "@/app/api/catalogs/[catalog]/sources/reload/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { getCatalog, updateCatalog } from "@/db/queries/catalogs";
import { createCustomTool, getTool, updateTool } from "@/db/queries/tools";
import type { CatalogRules } from "@/lib/rules/catalog-rules";
import { withEnv } from "../sources/helpers";
import { asInstanceAdmin, jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
let db: Db;

const revision = async () => (await getCatalog(db, "team")).revision;

async function currentRules(): Promise<CatalogRules> {
  return (await (await rulesRoute.GET(jsonRequest("GET"), team)).json()).rules;
}

async function putRules(body: Partial<CatalogRules>): Promise<Response> {
  return rulesRoute.PUT(jsonRequest("PUT", body), team);
}

beforeEach(async () => {
  db = await useFreshDatabase();
  await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
});

describe("rules PUT", () => {
  it("raises the revision by exactly one when it changes every part, with an audit entry per part", async () => {
    const rules = await currentRules();
    const before = await revision();
    const response = await putRules({
      modelRules: rules.modelRules.slice(1),
      providers: rules.providers.slice(1),
      overrides: [{ tool: "read", models: [], summary: "Read a file." }],
      searchServiceConfigured: !rules.searchServiceConfigured,
    });
    expect(response.status).toBe(200);
    expect(await revision()).toBe(before + 1);
    const entries = (await listAudit(db, "team")).filter((entry) => entry.revision === before + 1);
    expect(entries.map((entry) => entry.subject).sort()).toEqual(["modelRules", "overrides", "providers", "searchServiceConfigured"]);
  });

  it("records only the parts that changed", async () => {
    const rules = await currentRules();
    const before = await revision();
    await putRules({ modelRules: rules.modelRules, providers: rules.providers.slice(1) });
    expect(await revision()).toBe(before + 1);
    expect((await listAudit(db, "team")).filter((entry) => entry.revision === before + 1).map((entry) => entry.subject)).toEqual(["providers"]);
  });

  it("leaves the revision and the audit log alone when it changes nothing", async () => {
    const rules = await currentRules();
    const before = await revision();
    const audited = (await listAudit(db, "team")).length;
    const response = await putRules(rules);
    expect(response.status).toBe(200);
    expect((await response.json()).rules).toEqual(rules);
    expect(await revision()).toBe(before);
    expect(await listAudit(db, "team")).toHaveLength(audited);
  });

  it("changes nothing at all when one part is invalid", async () => {
    const rules = await currentRules();
    const before = await revision();
    const response = await putRules({ providers: rules.providers.slice(1), overrides: [{ tool: "no_such_tool", models: [], summary: "x" }] });
    expect(response.status).toBe(400);
    expect(await revision()).toBe(before);
    expect(await currentRules()).toEqual(rules);
  });
});

describe("other edits", () => {
  it("an agent PUT that changes nothing leaves the revision alone; one that does raises it by one", async () => {
    const plan = (await (await agentRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "plan" }))).json()).agent;
    const before = await revision();
    expect((await agentRoute.PUT(jsonRequest("PUT", plan), params({ catalog: "team", name: "plan" }))).status).toBe(200);
    expect(await revision()).toBe(before);
    await agentRoute.PUT(jsonRequest("PUT", { ...plan, description: "Plans." }), params({ catalog: "team", name: "plan" }));
    expect(await revision()).toBe(before + 1);
  });

  it("a tool update that changes nothing leaves the revision alone", async () => {
    await createCustomTool(
      db,
      "team",
      { name: "weather", summary: "Weather.", description: "Weather for a city.", inputSchema: { type: "object", properties: {} } },
      "tests",
    );
    const before = await revision();
    const tool = await getTool(db, "team", "weather");
    expect(await updateTool(db, "team", "weather", { summary: tool.summary, tags: tool.tags }, "tests")).toEqual(tool);
    expect(await revision()).toBe(before);
  });

  it("a catalog update that changes nothing leaves the revision alone", async () => {
    const before = await getCatalog(db, "team");
    expect(await updateCatalog(db, "team", { name: before.name, description: before.description }, "tests")).toEqual(before);
    expect(await revision()).toBe(before.revision);
  });
});

describe("sources", () => {
  /** The catalog's audit entries of one revision, as `action subject`. */
  const changesOf = async (revisionNumber: number) =>
    (await listAudit(db, "team"))
      .filter((entry) => entry.revision === revisionNumber)
      .map((entry) => `${entry.action} ${entry.subject}`)
      .sort();

  afterAll(async () => {
    await reloadLocalSources();
  });

  it("a reload of the local sources is one revision, however many plugin files changed", async () => {
    const plugins = mkdtempSync(path.join(os.tmpdir(), "toolshed-revision-plugins-"));
    const empty = mkdtempSync(path.join(os.tmpdir(), "toolshed-revision-empty-"));
    for (const name of ["alpha", "beta"]) {
      writeFileSync(
        path.join(plugins, `${name}.mjs`),
        `export default { name: "${name}", tools: [{ name: "${name}_ping", description: "Pings ${name}.", args: {} }] };`,
      );
    }
    const before = await revision();
    const instanceAdmin = await asInstanceAdmin();
    const response = await withEnv({ TOOLSHED_PLUGINS_DIR: plugins, TOOLSHED_SKILLS_DIR: empty, TOOLSHED_AGENTS_DIR: empty }, () =>
      reloadRoute.POST(jsonRequest("POST", undefined, instanceAdmin), team),
    );
    expect(response.status).toBe(200);
    expect(await revision()).toBe(before + 1);
    expect(await changesOf(before + 1)).toEqual(["register alpha_ping", "register beta_ping"]);
  });

  it("adding an MCP server is one revision: its configuration and the tools it lists", async () => {
    const demo = { name: "notes", transport: "stdio", command: process.execPath, args: ["mcp-servers/demo-server.mjs"] };
    const before = await revision();
    const instanceAdmin = await asInstanceAdmin();
    try {
      const response = await withEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} mcp-servers/demo-server.mjs` }, () =>
        serversRoute.POST(jsonRequest("POST", demo, instanceAdmin), team),
      );
      expect(response.status).toBe(201);
      expect((await response.json()).server).toMatchObject({ status: "connected", registeredCount: 5 });
      expect(await revision()).toBe(before + 1);
      expect(await changesOf(before + 1)).toEqual([
        "create mcp:notes",
        "register notes__notes_create",
        "register notes__notes_delete",
        "register notes__notes_get",
        "register notes__notes_search",
        "register notes__weather_forecast",
      ]);
    } finally {
      await serverRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "notes" }));
    }
  });
});
