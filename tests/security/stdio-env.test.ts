import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { disconnectMcpServer } from "@/app/_services/sources";
import type { Db } from "@/db/client";
import { createMcpServer, listMcpServers } from "@/db/queries/mcp-servers";
import { seed } from "@/db/seed";
import { McpConnections } from "@/lib/sources/mcp";
import { childEnvironment, parseStdioCommands, stdioPolicyProblem } from "@/lib/sources/mcp/stdio-policy";
import { APP_ORIGIN, asInstanceAdmin, jsonRequest, useFreshDatabase } from "../api/helpers";
import { useEnv, withEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { processesMentioning, processMarker } from "../support/processes";

// Issue 21, item 2: a team admin set DEMO_MCP_PID_FILE on the allowed demo server and overwrote any
// file the server could write; NODE_V8_COVERAGE passed the denylist too. Names are now allowed by
// the operator, line by line; the default allows the demo server DEMO_MCP_TOKEN only.
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: undefined });

const scratch = () => mkdtempSync(path.join(os.tmpdir(), "toolshed-stdio-env-"));
const DEMO_SERVER = "mcp-servers/demo-server.mjs";

/** POST /api/catalogs/demo/mcp-servers with an instance token (who may add stdio servers at all), as an HTTP client would. */
async function addToDemo(body: Record<string, unknown>) {
  const sent = jsonRequest("POST", { transport: "stdio", command: "node", ...body }, await asInstanceAdmin());
  const response = await routeApiRequest(new Request(`${APP_ORIGIN}/api/catalogs/demo/mcp-servers`, sent));
  return { status: response.status, body: await response.json() };
}

let db: Db;
beforeEach(async () => {
  db = await useFreshDatabase();
  await seed(db, { demo: true });
});
afterEach(async () => {
  for (const name of ["probe", "token", "legacy"]) await disconnectMcpServer("demo", name);
});

describe("the environment of a stdio server is the operator's allowlist", () => {
  it.each(["DEMO_MCP_PID_FILE", "NODE_V8_COVERAGE", "NODE_OPTIONS", "LD_PRELOAD", "PATH", "Path", "DEMO_MCP_HANG"])(
    "refuses %s on the allowed demo server: 400 naming the variable, nothing stored, nothing started",
    async (name) => {
      const marker = processMarker("probe");
      const target = path.join(scratch(), "written");
      const refused = await addToDemo({ name: "probe", args: [DEMO_SERVER, marker], env: { DEMO_MCP_TOKEN: "t", [name]: target } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "bad_request", field: `env.${name}` });
      expect(refused.body.error.message).toBe(
        `The environment variable "${name}" is not one the operator allowed for this command line. Allowed variables (the env= word of its line in TOOLSHED_MCP_STDIO_COMMANDS): DEMO_MCP_TOKEN.`,
      );
      expect((await listMcpServers(db, "demo")).map((server) => server.name)).toEqual(["notes"]);
      expect(processesMentioning(marker)).toEqual([]);
      expect(existsSync(target)).toBe(false);
    },
  );

  it("accepts the variable the default allows the demo server", async () => {
    const added = await addToDemo({ name: "token", args: [DEMO_SERVER], env: { DEMO_MCP_TOKEN: "s3cret" } });
    expect(added.status).toBe(201);
    expect(added.body.server).toMatchObject({ name: "token", status: "connected", config: { env: { DEMO_MCP_TOKEN: "********" } } });
  });

  it("does not start a stored server with a variable the allowlist no longer holds, and says which", async () => {
    const coverage = scratch();
    const marker = processMarker("legacy");
    // Stored while the operator allowed it (or by an older version with a denylist that let it through).
    await createMcpServer(
      db,
      "demo",
      { name: "legacy", transport: "stdio", command: "node", args: [DEMO_SERVER, marker], env: { NODE_V8_COVERAGE: coverage } },
      "test",
      {
        TOOLSHED_MCP_STDIO_COMMANDS: `node ${DEMO_SERVER} env=NODE_V8_COVERAGE`,
      },
    );
    const sent = jsonRequest("POST");
    const response = await routeApiRequest(new Request(`${APP_ORIGIN}/api/catalogs/demo/mcp-servers/legacy/sync`, sent));
    const { server } = await response.json();
    expect(server).toMatchObject({ status: "error", registeredCount: 0 });
    expect(server.lastError).toMatch(/^Refused to start the MCP server "legacy": The environment variable "NODE_V8_COVERAGE" is not one the operator allowed/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processesMentioning(marker)).toEqual([]);
    expect(readdirSync(coverage)).toEqual([]);
  });

  it("the demo server writes no file whatever its environment", async () => {
    const pidFile = path.join(scratch(), "pid");
    // Even where an operator allows the old switch, the server ignores it.
    const connections = new McpConnections(() => undefined);
    try {
      const listing = await withEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `node ${DEMO_SERVER} env=DEMO_MCP_PID_FILE` }, () =>
        connections.list("pid", { name: "pid", transport: "stdio", command: "node", args: [DEMO_SERVER], env: { DEMO_MCP_PID_FILE: pidFile } }),
      );
      expect(listing.tools).toHaveLength(5);
    } finally {
      await connections.disconnectAll();
    }
    expect(existsSync(pidFile)).toBe(false);
  });

  it("gives a server PATH from Toolshed, never from its configuration", () => {
    expect(childEnvironment({ env: { PATH: "/tmp/evil", TOKEN: "t" } }, ["HOME"], { PATH: "/usr/bin", HOME: "/root" })).toEqual({
      HOME: undefined,
      TOKEN: "t",
      PATH: "/usr/bin",
    });
  });
});

describe("the env= word of TOOLSHED_MCP_STDIO_COMMANDS", () => {
  const policy = (commands: string, config: { command: string; args?: string[]; env?: Record<string, string> }) =>
    stdioPolicyProblem(config, { TOOLSHED_MCP_STDIO_COMMANDS: commands });

  it("ends a line and names the variables it may set; a line without one allows none", () => {
    expect(parseStdioCommands("npx -y @acme/mcp env=ACME_TOKEN,ACME_REGION; uvx other")).toEqual([
      { command: "npx", args: ["-y", "@acme/mcp"], env: ["ACME_TOKEN", "ACME_REGION"] },
      { command: "uvx", args: ["other"], env: [] },
    ]);
    expect(policy("uvx other", { command: "uvx", args: ["other"], env: { TOKEN: "x" } })).toEqual({
      field: "env.TOKEN",
      message:
        'The environment variable "TOKEN" is not one the operator allowed for this command line. Allowed variables (the env= word of its line in TOOLSHED_MCP_STDIO_COMMANDS): none.',
    });
  });

  it("allows exact names only: no other case, no prefix", () => {
    const line = "node server.mjs env=API_TOKEN";
    expect(policy(line, { command: "node", args: ["server.mjs"], env: { API_TOKEN: "x" } })).toBeUndefined();
    expect(policy(line, { command: "node", args: ["server.mjs"], env: { api_token: "x" } })).toMatchObject({ field: "env.api_token" });
    expect(policy(line, { command: "node", args: ["server.mjs"], env: { API_TOKEN_FILE: "x" } })).toMatchObject({ field: "env.API_TOKEN_FILE" });
  });

  it("is never an argument: a server's own argument env=… stays an argument and sets nothing", () => {
    expect(policy("node server.mjs", { command: "node", args: ["server.mjs", "env=NODE_OPTIONS"] })).toBeUndefined();
    expect(policy("node server.mjs", { command: "node", args: ["server.mjs", "env=NODE_OPTIONS"], env: { NODE_OPTIONS: "x" } })).toMatchObject({
      field: "env.NODE_OPTIONS",
    });
  });

  it("takes the union of the names of every line that matches the configuration", () => {
    const lines = "npx -y @acme/mcp env=ACME_TOKEN; npx env=NPM_CONFIG_CACHE; npx -y @other/mcp env=OTHER_TOKEN";
    const acme = { command: "npx", args: ["-y", "@acme/mcp"] };
    expect(policy(lines, { ...acme, env: { ACME_TOKEN: "x", NPM_CONFIG_CACHE: "/tmp" } })).toBeUndefined();
    expect(policy(lines, { ...acme, env: { OTHER_TOKEN: "x" } })).toMatchObject({
      field: "env.OTHER_TOKEN",
      message: expect.stringMatching(/: ACME_TOKEN, NPM_CONFIG_CACHE\.$/),
    });
  });

  it.each([
    ["node env=A server.mjs", /the word "env=A" must be the line's last word/],
    ["node server.mjs env=A env=B", /the word "env=A" must be the line's last word/],
    ["env=A node server.mjs", /it starts with the env= word instead of a command/],
    ["node server.mjs env=", /"" in "env=" is not an environment variable name/],
    ["node server.mjs env=A,,B", /"" in "env=A,,B" is not an environment variable name/],
    ["node server.mjs env=DEMO_*", /"DEMO_\*" in "env=DEMO_\*" is not an environment variable name .*no patterns/],
    ["node server.mjs env=A,PATH", /PATH cannot be allowed/],
    ["node server.mjs env=Path", /PATH cannot be allowed/],
  ])("refuses the malformed line %s, naming it", (line, problem) => {
    expect(() => parseStdioCommands(`uvx ok; ${line}`)).toThrow(problem);
    expect(() => parseStdioCommands(line)).toThrow(`TOOLSHED_MCP_STDIO_COMMANDS is malformed in the line "${line}"`);
  });
});
