import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectionsOf, connectWithSecret, disconnectFromServer } from "@/app/_services/mcp-connections";
import { disconnectMcpServer } from "@/app/_services/sources";
import * as exportRoute from "@/app/api/catalogs/[catalog]/export/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { createMcpServer, getMcpServer } from "@/db/queries/mcp-servers";
import { mcpUserCredentials } from "@/db/tables";
import { useEnv } from "../sources/helpers";
import { useGatewayClients } from "../support/gateway-clients";
import { serveKeyedMcp } from "../support/keyed-mcp-server";
import { APP_ORIGIN, apiRequest, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";
import { signedInPerson } from "./sessions";

/**
 * An MCP server marked per person is called with the calling person's own credential, on a
 * connection of their own: never another person's, never a shared one, never the token that
 * reached the gateway. Whoever has none (an API token, a person who has not connected) reads a
 * tool error with where to connect.
 */

useEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" });
const connectAs = useGatewayClients("per-user-test");
const QUERY = "model=gpt-5&agent=build";

let db: Db;
let upstream: Awaited<ReturnType<typeof serveKeyedMcp>>;
/** The Authorization header of each tool call the upstream answered. */
const seen = () => upstream.seen;

const person = (email: string) => signedInPerson(db, email);

const browser = (cookie: string) => ({ headers: { cookie, origin: APP_ORIGIN } });
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  upstream = await serveKeyedMcp();
  await createMcpServer(
    db,
    "team",
    { name: "keyed", transport: "http", url: upstream.url, credentials: { mode: "per-user-secret", header: "Authorization", prefix: "Bearer " } },
    "test",
  );
});

afterEach(async () => {
  await disconnectMcpServer("team", "keyed");
  await upstream.close();
});

describe("a per-person secret", () => {
  it("reaches the server only in its own person's calls, and never comes back out", async () => {
    const ada = await person("ada@example.com");
    const bob = await person("bob@example.com");
    expect((await getMcpServer(db, "team", "keyed")).lastError).toBeNull();
    await connectWithSecret(db, ada.principal, "team", "keyed", "ada-secret");
    // The person who connected last lists the server's tools.
    expect(await getMcpServer(db, "team", "keyed")).toMatchObject({ status: "connected", lastError: null });
    await connectWithSecret(db, bob.principal, "team", "keyed", "bob-secret");

    for (const [who, token] of [
      [ada, "ada-secret"],
      [bob, "bob-secret"],
      [ada, "ada-secret"],
    ] as const) {
      const client = await connectAs("", QUERY, "team", browser(who.cookie));
      const result = await client.callTool({ name: "keyed__whoami", arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect(seen().at(-1)).toBe(`Bearer ${token}`);
    }
    // Stored encrypted; what the person's page shows is only since when.
    const [stored] = await db.select().from(mcpUserCredentials);
    expect(stored.secrets).not.toContain("ada-secret");
    const views = await connectionsOf(db, ada.principal);
    expect(views).toEqual([{ catalogId: "team", catalogName: "Team", server: "keyed", mode: "per-user-secret", connectedAt: expect.any(String) }]);
    expect(JSON.stringify(await getMcpServer(db, "team", "keyed"))).not.toMatch(/ada-secret|bob-secret/);
    // The catalog file carries the server's mode, nobody's credential.
    const exported = await (await exportRoute.GET(apiRequest("/api/catalogs/team/export?format=yaml"), params({ catalog: "team" }))).text();
    expect(exported).toContain("per-user-secret");
    expect(exported).not.toMatch(/ada-secret|bob-secret/);
  });

  it("is missing for a person who has not connected and for an API token: a tool error with where to connect, and no call upstream", async () => {
    const ada = await person("ada@example.com");
    const cy = await person("cy@example.com");
    await connectWithSecret(db, ada.principal, "team", "keyed", "ada-secret");
    const link = `${APP_ORIGIN}/connections?catalog=team&server=keyed`;

    const asCy = await (await connectAs("", QUERY, "team", browser(cy.cookie))).callTool({ name: "keyed__whoami", arguments: {} });
    expect(asCy.isError).toBe(true);
    expect(textOf(asCy)).toContain(`"keyed"`);
    expect(textOf(asCy)).toContain(link);

    const token = await createTestToken(db, "admin", "automation");
    const asToken = await (await connectAs(token, QUERY)).callTool({ name: "keyed__whoami", arguments: {} });
    expect(asToken.isError).toBe(true);
    expect(textOf(asToken)).toMatch(/API token, which belongs to no person/);
    expect(textOf(asToken)).toContain(link);
    expect(seen()).toEqual([]);

    // Disconnected: Ada is back to the connect link too.
    await disconnectFromServer(db, ada.principal, "team", "keyed");
    const after = await (await connectAs("", QUERY, "team", browser(ada.cookie))).callTool({ name: "keyed__whoami", arguments: {} });
    expect(textOf(after)).toContain(link);
    expect(seen()).toEqual([]);
  });

  it("lists the tools with the person who connected last, whose secret the server's health (read by everyone) never shows", async () => {
    const ada = await person("ada@example.com");
    await connectWithSecret(db, ada.principal, "team", "keyed", "refused-by-upstream-4711");
    const server = await getMcpServer(db, "team", "keyed");
    expect(server.status).toBe("error");
    expect(server.lastError).toContain("403");
    expect(JSON.stringify(server)).not.toContain("refused-by-upstream-4711");
  });

  it("is refused for a server of another team's catalog, which does not exist for the person", async () => {
    const ada = await person("ada@example.com");
    await expect(connectWithSecret(db, { ...ada.principal, roles: {} }, "team", "keyed", "x")).rejects.toMatchObject({ code: "not_found" });
    expect(await db.select().from(mcpUserCredentials)).toEqual([]);
  });
});
