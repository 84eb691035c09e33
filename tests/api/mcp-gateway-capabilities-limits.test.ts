import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, type CallToolResult, CreateMessageRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { disconnectMcpServer } from "@/app/_services/sources";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { useEnv } from "../sources/helpers";
import { useGatewayClients } from "../support/gateway-clients";
import { asInstanceAdmin, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

// A server that asks its client too much (tests/sources/fixtures/asking-server.mjs).
const ASKING_SERVER = path.resolve("tests/sources/fixtures/asking-server.mjs");
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${ASKING_SERVER}` });

const connectAs = useGatewayClients("gateway-capability-limits-test");
let readToken: string;

beforeEach(async () => {
  readToken = await createTestToken(await useFreshDatabase(), "read");
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  const server = { name: "asking", transport: "stdio", command: process.execPath, args: [ASKING_SERVER] };
  expect((await serversRoute.POST(jsonRequest("POST", server, await asInstanceAdmin()), params({ catalog: "team" }))).status).toBe(201);
  const agent = { name: "bridged", mode: "primary", description: "Uses the client.", permissions: [{ pattern: "*", action: "allow" }], baseTools: [] };
  expect((await agentsRoute.POST(jsonRequest("POST", agent), params({ catalog: "team" }))).status).toBe(201);
});

afterEach(async () => {
  await disconnectMcpServer("team", "asking");
});

/** A client with roots and sampling, whose model takes a moment to answer. */
function capableClient(): Promise<Client> {
  return connectAs(readToken, "model=gpt-5&agent=bridged", "team", {
    capabilities: { roots: { listChanged: true }, sampling: {} },
    prepare: (client) => {
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///workspaces/mine" }] }));
      client.setRequestHandler(CreateMessageRequestSchema, async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return { role: "assistant", content: { type: "text", text: "sampled" }, model: "test-model" };
      });
    },
  });
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as CallToolResult;
const linesOf = (result: CallToolResult) => (result.content[0].type === "text" ? result.content[0].text : "").split("\n");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const outcomes = async (client: Client) => JSON.parse(linesOf(await call(client, "asking__outcomes")).join("\n"));

describe("what a server may ask a calling client through the gateway", () => {
  it("is bounded: so many requests at once, so many per call, none too large", async () => {
    const client = await capableClient();
    const atOnce = linesOf(await call(client, "asking__ask_many", { count: 6 }));
    expect(atOnce.filter((line) => line.startsWith("answered"))).toHaveLength(4);
    expect(atOnce.filter((line) => line.includes("at most 4 requests to the client at once"))).toHaveLength(2);
    const inTurn = linesOf(await call(client, "asking__ask_in_turn", { count: 18 }));
    expect(inTurn.filter((line) => line.startsWith("answered"))).toHaveLength(16);
    expect(inTurn.slice(16).every((line) => line.includes("at most 16 requests to the client per call"))).toBe(true);
    const [huge] = linesOf(await call(client, "asking__ask_huge"));
    expect(huge).toMatch(/^refused: MCP error -32602: .*Toolshed forwards requests of at most 1000000 characters to the client/);
  });

  it("reaches the client outside a call for its roots only, and tells the server when they change", async () => {
    const client = await capableClient();
    // No call of the client's to that server in flight when the server asks (it asks 100 ms after answering).
    await call(client, "asking__ask_later");
    await pause(500);
    await call(client, "asking__roots_later");
    await pause(500);
    const { outcomes: seen } = await outcomes(client);
    expect(seen).toHaveLength(2);
    // A stdio server runs on Toolshed's host: it is told of no roots, whatever the client's.
    expect(seen).toContain("roots: answered: []");
    expect(seen.find((outcome: string) => outcome.startsWith("later:"))).toContain("only during a call of one of this server's tools");
    await client.sendRootsListChanged();
    await expect.poll(async () => (await outcomes(client)).rootsChanges, { timeout: 5_000 }).toBe(1);
  });

  it("refuses a client without the capability from the shared connection, and gives it no roots", async () => {
    const plain = await connectAs(readToken, "model=gpt-5&agent=bridged");
    expect(linesOf(await call(plain, "asking__ask_many", { count: 1 }))[0]).toContain("did not declare that capability");
    await call(plain, "asking__roots_later");
    await expect.poll(async () => (await outcomes(plain)).outcomes, { timeout: 5_000 }).toEqual(["roots: answered: []"]);
  });
});
