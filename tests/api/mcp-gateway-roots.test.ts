import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, type CallToolResult, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { disconnectMcpServer } from "@/app/_services/sources";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { useEnv } from "../sources/helpers";
import { useGatewayClients } from "../support/gateway-clients";
import { asInstanceAdmin, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

// The reference server "everything" (tools/conformance) over Streamable HTTP, on this machine: a
// remote server, to which a client's roots are passed on (a stdio one, on Toolshed's host, gets none:
// tests/api/mcp-gateway-capabilities.test.ts).
const EVERYTHING = path.resolve("tools/conformance/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
useEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" });

const connectAs = useGatewayClients("gateway-roots-test");
let readToken: string;
let upstream: ChildProcess;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

async function startEverything(): Promise<string> {
  const port = await freePort();
  upstream = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let said = "";
    upstream.stderr?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("listening")) resolve();
    });
    upstream.once("exit", (code) => reject(new Error(`server-everything exited with ${code}: ${said}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

beforeEach(async () => {
  readToken = await createTestToken(await useFreshDatabase(), "read");
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  const server = { name: "everything", transport: "http", url: await startEverything() };
  expect((await serversRoute.POST(jsonRequest("POST", server, await asInstanceAdmin()), params({ catalog: "team" }))).status).toBe(201);
  const agent = {
    name: "bridged",
    mode: "primary",
    description: "Uses the client.",
    permissions: [{ pattern: "*", action: "allow" }],
    baseTools: ["everything__get-roots-list"],
  };
  expect((await agentsRoute.POST(jsonRequest("POST", agent), params({ catalog: "team" }))).status).toBe(201);
});

afterEach(async () => {
  await disconnectMcpServer("team", "everything");
  upstream.kill();
});

const call = async (client: Client, name: string) => (await client.callTool({ name, arguments: {} }, CallToolResultSchema)) as CallToolResult;
const textOf = (result: CallToolResult) => result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

describe("a remote (HTTP) server's roots/list through the gateway", () => {
  it("reaches the calling client, whose roots it gets, and no other client's", async () => {
    const withRoots = await connectAs(readToken, "model=gpt-5&agent=bridged", "team", {
      capabilities: { roots: {} },
      prepare: (client) => client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///workspaces/mine", name: "my workspace" }] })),
    });
    const roots = await call(withRoots, "everything__get-roots-list");
    expect(roots.isError).toBeFalsy();
    expect(textOf(roots)).toContain("file:///workspaces/mine");
    const plain = await connectAs(readToken, "model=gpt-5&agent=bridged");
    expect(textOf(await call(plain, "everything__get-roots-list"))).not.toContain("workspaces/mine");
  });
});
