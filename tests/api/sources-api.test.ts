import { existsSync, mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reloadLocalSources, syncLocalSources } from "@/app/_services/local-sources";
import { callMcpServerTool, syncAllSources } from "@/app/_services/sources";
import * as exportRoute from "@/app/api/catalogs/[catalog]/export/route";
import * as serverRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/route";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import * as syncRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/sync/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as toolListRoute from "@/app/api/catalogs/[catalog]/tool-list/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { createMcpServer } from "@/db/queries/mcp-servers";
import { mcpServers } from "@/db/tables";
import { secretForms } from "@/lib/secrets";
import { useEnv, withEnv } from "../sources/helpers";
import { processesMentioning, processMarker, processMentioning } from "../support/processes";
import { asInstanceAdmin, jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
const LEAKY_SERVER = path.resolve("tests/sources/fixtures/leaky-server.mjs");
// The stdio commands these tests may start (the demo server as this process's node runs it, a
// missing command, a server that prints its secrets); nothing else, as in production.
useEnv({
  TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} mcp-servers/demo-server.mjs env=DEMO_MCP_TOKEN; /no/such/command; ${process.execPath} ${LEAKY_SERVER} env=SERVICE_TOKEN`,
  TOOLSHED_MCP_ALLOW_PRIVATE: undefined,
});
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
  db = await useFreshDatabase();
  await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
});

describe("MCP servers", () => {
  it("registers a stdio server's tools, loses them when the process dies, and gets them back on sync", async () => {
    const marker = processMarker("notes");
    const created = await json(
      serversRoute.POST(
        jsonRequest(
          "POST",
          {
            name: "notes",
            transport: "stdio",
            command: process.execPath,
            args: ["mcp-servers/demo-server.mjs", marker],
            env: { DEMO_MCP_TOKEN: "s3cret-token" },
          },
          await asInstanceAdmin(),
        ),
        team,
      ),
    );
    expect(created.status).toBe(201);
    expect(created.body.server).toMatchObject({ name: "notes", status: "connected", registeredCount: 5 });
    expect(JSON.stringify(created.body)).not.toContain("s3cret-token");
    const listed = await json(serversRoute.GET(jsonRequest("GET"), team));
    expect(listed.body.servers[0].config.env.DEMO_MCP_TOKEN).toBe("********");

    const tools = (await json(toolsRoute.GET(jsonRequest("GET"), team))).body.tools;
    expect(tools.find((tool: { name: string }) => tool.name === "notes__weather_forecast")).toMatchObject({
      source: "mcp",
      sourceRef: "notes",
      registered: true,
    });
    const before = await toolList();
    expect(before.body.tools.map((tool: { name: string }) => tool.name)).toContain("notes__notes_search");
    expect((await search("notes__weather_forecast")).body.tools.map((tool: { name: string }) => tool.name)).toEqual(["notes__weather_forecast"]);

    // Down for this instance: its tools leave this instance's answers; the registry (shared by every
    // instance) and its revision stay as they were.
    process.kill(processMentioning(marker), "SIGKILL");
    await waitFor(async () => (await json(serverRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "notes" })))).body.server.status === "error");
    const gone = await search("notes__weather_forecast");
    expect(gone.body.tools).toEqual([]);
    expect(gone.body.rejected).toEqual([{ name: "notes__weather_forecast", reason: "not registered: its source is unavailable" }]);
    const without = await toolList();
    expect(without.body.tools.map((tool: { name: string }) => tool.name)).not.toContain("notes__notes_search");
    expect(without.body.trace[0].removed).toContainEqual({ name: "notes__notes_search", reason: "not registered (mcp source unavailable on this instance)" });
    expect(without.body.revision).toBe(before.body.revision);
    expect(
      (await json(toolsRoute.GET(jsonRequest("GET"), team))).body.tools.find((tool: { name: string }) => tool.name === "notes__notes_search"),
    ).toMatchObject({
      registered: true,
    });

    const synced = await json(syncRoute.POST(jsonRequest("POST"), params({ catalog: "team", name: "notes" })));
    expect(synced.body.server).toMatchObject({ status: "connected", registeredCount: 5 });
    expect((await search("notes__weather_forecast")).body.tools).toHaveLength(1);

    expect((await json(serverRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "notes" })))).status).toBe(204);
    expect((await json(toolsRoute.GET(jsonRequest("GET"), team))).body.tools.some((tool: { source: string }) => tool.source === "mcp")).toBe(false);
  });

  it("records a server that cannot start with its error, and refuses bad configurations and duplicates", async () => {
    const broken = await json(
      serversRoute.POST(jsonRequest("POST", { name: "ghost", transport: "stdio", command: "/no/such/command" }, await asInstanceAdmin()), team),
    );
    expect(broken.status).toBe(201);
    expect(broken.body.server).toMatchObject({ status: "error", registeredCount: 0 });
    expect(broken.body.server.lastError).toContain("was not found");
    expect(
      (await json(serversRoute.POST(jsonRequest("POST", { name: "ghost", transport: "stdio", command: "/no/such/command" }, await asInstanceAdmin()), team)))
        .status,
    ).toBe(409);
    const bad = await json(serversRoute.POST(jsonRequest("POST", { name: "Bad Name", transport: "http", url: "ftp://x" }), team));
    expect(bad.status).toBe(400);
    expect(bad.body.error.problems.map((problem: { field: string }) => problem.field)).toEqual(["name", "url"]);
  });
});

/** A Streamable HTTP MCP server with one tool, `hello`, answering each request on its own (no sessions), on `port` (0: any). */
async function helloHttpServer(port = 0): Promise<{ url: string; stop: () => Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const mcp = new McpServer({ name: "hello", version: "1.0.0" });
    mcp.registerTool("hello", { description: "Says hello to whoever asks." }, async () => ({ content: [{ type: "text", text: "hello" }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on("close", () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

describe("an MCP server over HTTP", () => {
  const status = async () => (await json(serverRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "remote" })))).body.server.status;
  const found = async () => (await search("select:remote__hello")).body.tools.map((tool: { name: string }) => tool.name);

  it("is down as soon as a call cannot reach it, and up again as soon as a call succeeds", async () => {
    await withEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" }, async () => {
      let upstream = await helloHttpServer();
      const port = Number(new URL(upstream.url).port);
      try {
        const added = await json(
          serversRoute.POST(jsonRequest("POST", { name: "remote", transport: "http", url: upstream.url }, await asInstanceAdmin()), team),
        );
        expect(added.body.server).toMatchObject({ status: "connected", registeredCount: 1 });
        expect(textOf(await callMcpServerTool(db, "team", "remote", "hello", {}))).toBe("hello");

        await upstream.stop();
        await expect(callMcpServerTool(db, "team", "remote", "hello", {})).rejects.toThrow(/Could not reach the MCP server "remote"/);
        expect(await status()).toBe("error");
        expect(await found()).toEqual([]);

        upstream = await helloHttpServer(port);
        expect(textOf(await callMcpServerTool(db, "team", "remote", "hello", {}))).toBe("hello");
        await waitFor(async () => (await status()) === "connected");
        expect(await found()).toEqual(["remote__hello"]);
      } finally {
        await serverRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "remote" }));
        await upstream.stop();
      }
    });
  });
});

const textOf = (result: { content: { type: string; text?: string }[] }) => result.content.map((block) => block.text).join("\n");

/** A Streamable HTTP "MCP server" that fails every request with a body echoing what it was sent. */
async function echoingHttpServer(): Promise<{ url: string; seen: IncomingMessage[]; close: () => void }> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request);
    const echoed = JSON.stringify({ url: request.url, headers: request.headers });
    response.writeHead(500, { "content-type": "text/plain" }).end(`internal error: ${echoed} ${Buffer.from(echoed).toString("base64")}`);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe("MCP source security", () => {
  const marker = () => path.join(mkdtempSync(path.join(os.tmpdir(), "mcp-refused-")), "started");

  it("refuses a stdio command the operator did not allow: 400 on command, nothing stored, nothing started", async () => {
    const file = marker();
    const refused = await json(
      serversRoute.POST(jsonRequest("POST", { name: "evil", transport: "stdio", command: "sh", args: ["-c", `touch ${file}`] }, await asInstanceAdmin()), team),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "bad_request", field: "command" });
    expect(refused.body.error.message).toContain(
      `Allowed command lines (TOOLSHED_MCP_STDIO_COMMANDS, further arguments may follow): "${process.execPath} mcp-servers/demo-server.mjs"`,
    );
    expect((await json(serversRoute.GET(jsonRequest("GET"), team))).body.servers).toEqual([]);
    expect(await listAudit(db, "team", { subject: "mcp:evil" })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(file)).toBe(false);
    expect(processesMentioning(file)).toEqual([]);
  });

  it("never starts a stored server the allowlist no longer holds: not at sync, not at start, not at a call", async () => {
    const file = marker();
    // As an older database or a since-changed allowlist would have it.
    await createMcpServer(db, "team", { name: "legacy", transport: "stdio", command: "sh", args: ["-c", `touch ${file}`] }, "test", {
      TOOLSHED_MCP_STDIO_COMMANDS: "sh -c",
    });
    const synced = await json(syncRoute.POST(jsonRequest("POST"), params({ catalog: "team", name: "legacy" })));
    expect(synced.body.server).toMatchObject({ status: "error" });
    expect(synced.body.server.lastError).toMatch(
      /^Refused to start the MCP server "legacy": The command "sh" with these arguments is not one the operator allowed/,
    );
    await syncAllSources(db);
    await reloadLocalSources({ ...process.env, ...REPO_SOURCES }); // syncAllSources read the (empty) default folders
    await expect(callMcpServerTool(db, "team", "legacy", "anything", {})).rejects.toMatchObject({ failure: "config", status: 400 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(file)).toBe(false);
    expect(processesMentioning(file)).toEqual([]);
  });

  it.each([
    "http://127.0.0.1:8080/mcp",
    "http://localhost:8080/mcp",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]:8080/mcp",
    "http://10.0.0.7/mcp",
  ])("refuses an HTTP server at %s: 400 on url, nothing stored", async (url) => {
    const refused = await json(serversRoute.POST(jsonRequest("POST", { name: "internal", transport: "http", url }), team));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "bad_request", field: "url" });
    expect(refused.body.error.message).toMatch(
      /address: MCP servers on loopback, private, link-local or reserved addresses are refused unless the operator sets TOOLSHED_MCP_ALLOW_PRIVATE=1\.$/,
    );
    expect((await json(serversRoute.GET(jsonRequest("GET"), team))).body.servers).toEqual([]);
  });

  it("keeps a canary secret in env, headers, URL credentials, query and args out of the database's config, views, audit entries and errors, in every encoding", async () => {
    const canary = "Canary9xK3-secret";
    const upstream = await echoingHttpServer();
    try {
      const answers = await withEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" }, async () => [
        await json(
          serversRoute.POST(
            jsonRequest(
              "POST",
              {
                name: "local",
                transport: "stdio",
                command: process.execPath,
                args: [LEAKY_SERVER, "--token", { value: canary, secret: true }],
                env: { SERVICE_TOKEN: canary },
              },
              await asInstanceAdmin(),
            ),
            team,
          ),
        ),
        await json(
          serversRoute.POST(
            jsonRequest(
              "POST",
              {
                name: "remote",
                transport: "http",
                url: `http://user:${canary}@${upstream.url}/mcp?key=${canary}`,
                headers: { Authorization: `Bearer ${canary}`, "X-Api-Key": canary },
              },
              await asInstanceAdmin(),
            ),
            team,
          ),
        ),
        await json(
          serversRoute.POST(
            jsonRequest("POST", { name: "basic", transport: "http", url: `http://user:${canary}@${upstream.url}/basic` }, await asInstanceAdmin()),
            team,
          ),
        ),
        await json(syncRoute.POST(jsonRequest("POST"), params({ catalog: "team", name: "remote" }))),
        await json(serversRoute.GET(jsonRequest("GET"), team)),
        await json(serverRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "local" }))),
      ]);
      // The secrets were used: the upstream got them.
      expect(upstream.seen[0].headers.authorization).toBe(`Bearer ${canary}`);
      expect(upstream.seen[0].url).toBe(`/mcp?key=${canary}`);
      // fetch refuses URLs with credentials: they are sent as Basic authorization instead.
      const basic = upstream.seen.find((request) => request.url === "/basic");
      expect(basic?.headers.authorization).toBe(`Basic ${Buffer.from(`user:${canary}`).toString("base64")}`);

      const [, local, remote] = answers[4].body.servers.sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name));
      expect(local.config).toEqual({
        name: "local",
        transport: "stdio",
        command: process.execPath,
        args: [LEAKY_SERVER, "--token", { value: "********", secret: true }],
        env: { SERVICE_TOKEN: "********" },
      });
      expect(local.lastError).toMatch(/The server wrote to stderr: plain=\*{8} b64=\*{8}/);
      expect(remote.config.url).toBe(`http://********:********@${upstream.url}/mcp?key=********`);
      expect(remote.lastError).toBe('The MCP server "remote" answered HTTP 500.');

      const readBack = [
        await json(exportRoute.GET(jsonRequest("GET"), team)),
        await json(toolsRoute.GET(jsonRequest("GET"), team)),
        await json(catalogRoute.GET(jsonRequest("GET"), team)),
      ];
      const places = {
        "API answers": JSON.stringify(answers),
        "export, tools and catalog": JSON.stringify(readBack),
        "config column": JSON.stringify(await db.select({ config: sql<string>`${mcpServers.config}`, lastError: mcpServers.lastError }).from(mcpServers)),
        "secrets column": JSON.stringify(await db.select({ secrets: mcpServers.secrets }).from(mcpServers)),
        "audit entries": JSON.stringify(await listAudit(db, "team", { limit: 1_000 })),
      };
      for (const [where, text] of Object.entries(places)) {
        for (const form of secretForms(canary)) expect(text, `${where} hold the canary as ${form}`).not.toContain(form);
      }
    } finally {
      upstream.close();
    }
  });
});

describe("plugins, skills and agent files", () => {
  it("registers plugin tools, applies the plugin's definition hook, lists skills in skill and file agents in task", async () => {
    await syncLocalSources(db, "team");
    const tools = (await json(toolsRoute.GET(jsonRequest("GET"), team))).body.tools;
    expect(tools.find((tool: { name: string }) => tool.name === "changelog_draft")).toMatchObject({ source: "plugin", registered: true });
    expect(
      tools
        .filter((tool: { source: string }) => tool.source === "skill")
        .map((tool: { name: string }) => tool.name)
        .sort(),
    ).toEqual(["db-migration", "release-notes"]);

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
