import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reloadLocalSources, syncLocalSources } from "@/app/_services/sources";
import * as serverRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/route";
import * as syncRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/sync/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as toolListRoute from "@/app/api/catalogs/[catalog]/tool-list/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
const REPO_SOURCES = { TOOLSHED_PLUGINS_DIR: "plugins", TOOLSHED_SKILLS_DIR: "skills", TOOLSHED_AGENTS_DIR: "agents" };

async function json(response: Response | Promise<Response>) {
  const resolved = await response;
  return { status: resolved.status, body: resolved.status === 204 ? null : await resolved.json() };
}

async function waitFor(check: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const search = (query: string) => json(toolSearchRoute.POST(jsonRequest("POST", { model: "gpt-5", agent: "build", query }), team));
const toolList = (model = "gpt-5", agent = "build") => json(toolListRoute.POST(jsonRequest("POST", { model, agent }), team));

let db: Db;
beforeAll(async () => {
  await reloadLocalSources({ ...process.env, ...REPO_SOURCES });
});
afterAll(async () => {
  await serverRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "notes" })).catch(() => undefined);
  await reloadLocalSources();
});
beforeEach(async () => {
  db = useFreshDatabase();
  await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
});

describe("MCP servers", () => {
  it("registers a stdio server's tools, loses them when the process dies, and gets them back on sync", async () => {
    const pidFile = path.join(mkdtempSync(path.join(os.tmpdir(), "mcp-")), "pid");
    const created = await json(
      serversRoute.POST(
        jsonRequest("POST", { name: "notes", transport: "stdio", command: process.execPath, args: ["mcp-servers/demo-server.mjs"], env: { DEMO_MCP_PID_FILE: pidFile, DEMO_MCP_TOKEN: "s3cret-token" } }),
        team,
      ),
    );
    expect(created.status).toBe(201);
    expect(created.body.server).toMatchObject({ name: "notes", status: "connected", registeredCount: 5 });
    expect(JSON.stringify(created.body)).not.toContain("s3cret-token");
    const listed = await json(serversRoute.GET(jsonRequest("GET"), team));
    expect(listed.body.servers[0].config.env.DEMO_MCP_TOKEN).toBe("********");

    const tools = (await json(toolsRoute.GET(jsonRequest("GET"), team))).body.tools;
    expect(tools.find((tool: { name: string }) => tool.name === "notes__weather_forecast")).toMatchObject({ source: "mcp", sourceRef: "notes", registered: true });
    expect((await toolList()).body.tools.map((tool: { name: string }) => tool.name)).toContain("notes__notes_search");
    expect((await search("notes__weather_forecast")).body.tools.map((tool: { name: string }) => tool.name)).toEqual(["notes__weather_forecast"]);

    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
    await waitFor(async () => (await json(serverRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "notes" })))).body.server.status === "error");
    const gone = await search("notes__weather_forecast");
    expect(gone.body.tools).toEqual([]);
    expect(gone.body.rejected).toEqual([{ name: "notes__weather_forecast", reason: "not registered: its source is unavailable" }]);
    expect((await toolList()).body.tools.map((tool: { name: string }) => tool.name)).not.toContain("notes__notes_search");

    const synced = await json(syncRoute.POST(jsonRequest("POST"), params({ catalog: "team", name: "notes" })));
    expect(synced.body.server).toMatchObject({ status: "connected", registeredCount: 5 });
    expect((await search("notes__weather_forecast")).body.tools).toHaveLength(1);

    expect((await json(serverRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "notes" })))).status).toBe(204);
    expect((await json(toolsRoute.GET(jsonRequest("GET"), team))).body.tools.some((tool: { source: string }) => tool.source === "mcp")).toBe(false);
  });

  it("records a server that cannot start with its error, and refuses bad configurations and duplicates", async () => {
    const broken = await json(serversRoute.POST(jsonRequest("POST", { name: "ghost", transport: "stdio", command: "/no/such/command" }), team));
    expect(broken.status).toBe(201);
    expect(broken.body.server).toMatchObject({ status: "error", registeredCount: 0 });
    expect(broken.body.server.lastError).toContain("was not found");
    expect((await json(serversRoute.POST(jsonRequest("POST", { name: "ghost", transport: "stdio", command: "x" }), team))).status).toBe(409);
    const bad = await json(serversRoute.POST(jsonRequest("POST", { name: "Bad Name", transport: "http", url: "ftp://x" }), team));
    expect(bad.status).toBe(400);
    expect(bad.body.error.problems.map((problem: { field: string }) => problem.field)).toEqual(["name", "url"]);
  });
});

describe("plugins, skills and agent files", () => {
  it("registers plugin tools, applies the plugin's definition hook, lists skills in skill and file agents in task", async () => {
    await syncLocalSources(db, "team");
    const tools = (await json(toolsRoute.GET(jsonRequest("GET"), team))).body.tools;
    expect(tools.find((tool: { name: string }) => tool.name === "changelog_draft")).toMatchObject({ source: "plugin", registered: true });
    expect(tools.filter((tool: { source: string }) => tool.source === "skill").map((tool: { name: string }) => tool.name).sort()).toEqual(["db-migration", "release-notes"]);

    const gpt = (await toolList("gpt-5")).body;
    const names = gpt.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain("changelog_draft");
    expect(names).not.toContain("release-notes");
    const skill = gpt.tools.find((tool: { name: string }) => tool.name === "skill");
    expect(skill.description).toContain("release-notes");
    const task = gpt.tools.find((tool: { name: string }) => tool.name === "task");
    expect(task.description).toContain("reviewer");
    const bash = gpt.tools.find((tool: { name: string }) => tool.name === "bash");
    const claudeBash = (await toolList("claude-sonnet-4-5")).body.tools.find((tool: { name: string }) => tool.name === "bash");
    expect(bash.description).not.toBe(claudeBash.description);
    const hookTrace = gpt.trace.find((entry: { stage: string }) => entry.stage === "definition-overrides");
    expect(hookTrace.changed).toContainEqual(expect.objectContaining({ name: "bash", reason: expect.stringContaining("release-helper") }));
  });
});
