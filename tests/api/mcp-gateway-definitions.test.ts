import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { disconnectMcpServer } from "@/app/_services/sources";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { syncSourceTools } from "@/db/queries/source-tools";
import { getTool, listTools } from "@/db/queries/tools";
import { useEnv } from "../sources/helpers";
import { useGatewayClients } from "../support/gateway-clients";
import { asInstanceAdmin, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

const STRUCTURED_SERVER = path.resolve("tests/fixtures/mcp/structured-server.mjs");
const TOKEN = "tok-structured-7c1e9a";
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${STRUCTURED_SERVER} env=STRUCTURED_TOKEN` });

const connectAs = useGatewayClients("gateway-definitions-test");

let db: Db;
let readToken: string;

beforeEach(async () => {
  db = await useFreshDatabase();
  readToken = await createTestToken(db, "read");
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  const server = { name: "structured", transport: "stdio", command: process.execPath, args: [STRUCTURED_SERVER], env: { STRUCTURED_TOKEN: TOKEN } };
  expect((await serversRoute.POST(jsonRequest("POST", server, await asInstanceAdmin()), params({ catalog: "team" }))).status).toBe(201);
  const agent = {
    name: "weather",
    mode: "primary",
    description: "Reads the forecast.",
    permissions: [{ pattern: "*", action: "allow" }],
    baseTools: ["structured__forecast"],
  };
  expect((await agentsRoute.POST(jsonRequest("POST", agent), params({ catalog: "team" }))).status).toBe(201);
});

afterEach(async () => {
  await disconnectMcpServer("team", "structured");
});

/** The SDK's client on the gateway, for the agent that has the forecast among its base tools. */
async function connect(): Promise<Client> {
  return connectAs(readToken, "model=gpt-5&agent=weather");
}

/** The gateway's answer as sent: the client's own check of the output schema is not run (listTools is not called first). */
const forecast = async (client: Client, answer: string) =>
  (await client.callTool({ name: "structured__forecast", arguments: { answer } }, CallToolResultSchema)) as CallToolResult;
const textOf = (result: CallToolResult) => result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

describe("the MCP gateway serves a tool's whole definition", () => {
  it("lists an upstream tool's title, output schema, annotations and _meta, its _meta scrubbed of the server's secrets", async () => {
    const { tools } = await (await connect()).listTools();
    const listed = tools.find((tool) => tool.name === "structured__forecast");
    expect(listed).toEqual({
      name: "structured__forecast",
      title: "Weather forecast",
      description: "Tomorrow's temperature.",
      inputSchema: { type: "object", properties: { answer: { type: "string", enum: ["valid", "wrong", "missing", "error"] } }, required: ["answer"] },
      outputSchema: {
        type: "object",
        properties: { temperature: { type: "number" }, unit: { type: "string", enum: ["C", "F"] } },
        required: ["temperature", "unit"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { "example.com/ui": { widget: "thermometer" }, "example.com/auth": "token ********" },
    });
    expect(JSON.stringify(await listTools(db, "team"))).not.toContain(TOKEN);
  });

  it("holds back a tool whose output schema changed, like any change of its definition", async () => {
    const [tool] = (await listTools(db, "team")).filter((candidate) => candidate.name === "structured__forecast");
    const meta = { ...tool.meta!, outputSchema: { type: "object", properties: { temperature: { type: "string" } } } };
    const draft = { name: tool.name, summary: tool.summary, description: tool.description, inputSchema: tool.inputSchema, tags: tool.tags, meta };
    await syncSourceTools(db, "team", [{ source: "mcp", sourceRef: "structured", drafts: [draft] }], "sync");
    expect((await getTool(db, "team", "structured__forecast")).heldBack).toBe("changed");
    expect((await (await connect()).listTools()).tools.map((listed) => listed.name)).not.toContain("structured__forecast");
  });
});

describe("the MCP gateway checks structured results against the output schema it listed", () => {
  it("passes a conforming result through unchanged", async () => {
    const result = await forecast(await connect(), "valid");
    expect(result).toEqual({ content: [{ type: "text", text: "21.5 C" }], structuredContent: { temperature: 21.5, unit: "C" } });
  });

  it("answers a result whose structured content breaks the schema with an error naming the tool and the path", async () => {
    const result = await forecast(await connect(), "wrong");
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toBe(
      "structured__forecast answered with structured content that does not match its output schema: at /temperature, must be number.",
    );
  });

  it("answers a result without structured content with an error", async () => {
    const result = await forecast(await connect(), "missing");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("structured__forecast declares an output schema, but its server answered without structured content.");
  });

  it("keeps the server's own error result, without structured content that breaks the schema", async () => {
    const result = await forecast(await connect(), "error");
    expect(result).toEqual({ content: [{ type: "text", text: "No forecast today." }], isError: true });
  });
});
