import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as serverRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { listTools } from "@/db/queries/tools";
import { mcpServers } from "@/db/tables";
import { acceptedFormatsText } from "@/lib/catalogs/import-formats";
import { useEnv } from "../sources/helpers";
import { processMarker } from "../support/processes";
import { asInstanceAdmin, createTestToken, jsonRequest, params, postTeamImport, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
const SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const SECRET = "s3cret-weather-key-0451";

useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} mcp-servers/demo-server.mjs env=DEMO_MCP_TOKEN`, TOOLSHED_MCP_ALLOW_PRIVATE: undefined });

let db: Db;
beforeEach(async () => {
  db = await useFreshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, "test");
});
afterEach(async () => {
  await serverRoute.DELETE(jsonRequest("DELETE", undefined, await asInstanceAdmin()), params({ catalog: "team", name: "demo" })).catch(() => undefined);
});

const postImport = postTeamImport;

const openAiTools = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    type: "function",
    function: { name: `tool_${index}`, description: `Does thing ${index}.`, parameters: SCHEMA },
  }));

describe("POST …/import of other formats", () => {
  it("previews and imports OpenAI function tools, a plain list or wrapped in {tools}, naming the format", async () => {
    const preview = await postImport(openAiTools(203), "?dryRun=1");
    expect(preview.status).toBe(200);
    expect(preview.body.preview).toMatchObject({ format: { id: "openai-chat", label: "OpenAI Chat Completions function tools" }, invalid: [] });
    expect(preview.body.preview.created).toHaveLength(203);
    const imported = await postImport({ tools: openAiTools(203) });
    expect(imported.status).toBe(200);
    expect(imported.body.created).toHaveLength(203);
    expect((await listTools(db, "team")).find((tool) => tool.name === "tool_5")?.inputSchema).toEqual(SCHEMA);
  });

  it("answers a file of no known shape with one error naming every accepted format, and imports nothing", async () => {
    const refused = await postImport({ functions: [{ name: "x" }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(acceptedFormatsText());
    expect(refused.body.error.problems).toBeUndefined();
  });

  it("adds an MCP client configuration's servers through the add-server path: its secrets encrypted, never answered", async () => {
    const config = {
      mcpServers: {
        Demo: { command: process.execPath, args: ["mcp-servers/demo-server.mjs", processMarker("import")], env: { DEMO_MCP_TOKEN: SECRET }, autoApprove: [] },
      },
    };
    const preview = await postImport(config, "?dryRun=1", await asInstanceAdmin());
    expect(preview.status).toBe(200);
    expect(preview.body.preview).toMatchObject({
      format: { id: "mcp-client-config" },
      servers: [{ key: "Demo", name: "demo", transport: "stdio", secrets: ["DEMO_MCP_TOKEN"], problems: [] }],
    });
    expect(preview.body.preview.servers[0].notes).toContain('Not kept: "autoApprove" (Toolshed has no such setting).');
    const added = await postImport(config, "", await asInstanceAdmin());
    expect(added.status).toBe(201);
    expect(added.body.servers).toEqual([{ name: "demo", sync: expect.objectContaining({ added: expect.arrayContaining(["demo__weather_forecast"]) }) }]);
    const listed = await serversRoute.GET(jsonRequest("GET"), team).then((response) => response.json());
    expect(listed.servers[0].config.env.DEMO_MCP_TOKEN).toBe("********");
    const stored = JSON.stringify(await db.select({ config: sql<string>`${mcpServers.config}`, secrets: mcpServers.secrets }).from(mcpServers));
    for (const text of [JSON.stringify(preview.body), JSON.stringify(added.body), stored]) expect(text).not.toContain(SECRET);
    // Again: the name is taken now, and nothing more is added.
    const again = await postImport(config, "", await asInstanceAdmin());
    expect(again).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('An MCP server named "demo" already exists') } } });
  });

  it("checks each server as adding it does: stdio needs an instance admin and the allowlist; private URLs are refused; editors may not", async () => {
    const config = {
      servers: {
        demo: { type: "stdio", command: process.execPath, args: ["mcp-servers/demo-server.mjs"] },
        shell: { type: "stdio", command: "sh", args: ["-c", "touch /tmp/pwned"] },
        local: { type: "http", url: "http://127.0.0.1:9/mcp" },
      },
    };
    const asTeamAdmin = await postImport(config, "?dryRun=1");
    const problems = asTeamAdmin.body.preview.servers.map((server: { problems: { field: string; message: string }[] }) =>
      server.problems.map((problem) => problem.field),
    );
    expect(problems).toEqual([["servers.demo"], ["servers.shell", "servers.shell.command"], ["servers.local.url"]]);
    expect(asTeamAdmin.body.preview.servers[0].problems[0].message).toMatch(/^Only an instance admin may add stdio MCP servers/);
    const refused = await postImport(config, "", await asInstanceAdmin());
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^Import rejected: 2 problems/);
    expect(await db.select().from(mcpServers)).toEqual([]);
    const editor = { authorization: `Bearer ${await createTestToken(db, "write", "editor")}` };
    const forbidden = await postImport(config, "?dryRun=1", editor);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.message).toContain("this needs admin");
  });
});
