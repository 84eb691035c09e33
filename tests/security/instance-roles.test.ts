/**
 * Issue 21, item 1: any signed-in person, even a viewer, ran code on the host. `POST /api/teams`
 * made anyone the admin of a new team, and a team admin could add a stdio MCP server (with
 * `TOOLSHED_MCP_STDIO_COMMANDS=node`, `node -e "…"`), or, under TOOLSHED_MCP_ALLOW_PRIVATE=1, an
 * HTTP server on the private network. Now what reaches outside the database is an instance
 * admin's, by every path: the API routes, the pages' server actions, tokens.
 */
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as serverRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as reloadRoute from "@/app/api/catalogs/[catalog]/sources/reload/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import * as tokensRoute from "@/app/api/teams/[team]/tokens/route";
import * as teamsRoute from "@/app/api/teams/route";
import { addMcpServerAction, reloadSourcesAction } from "@/app/catalogs/[catalog]/sources/actions";
import { createTeamAction, createTokenAction } from "@/app/teams/actions";
import { bootstrapAccounts } from "@/app/_services/bootstrap";
import type { Db } from "@/db/client";
import { listMcpServers } from "@/db/queries/mcp-servers";
import { useEnv, withEnv } from "../sources/helpers";
import { processesMentioning } from "../support/processes";
import { asInstanceAdmin, createTestToken, jsonRequest, params, useFreshDatabase } from "../api/helpers";
import { browserHeaders, signedInAs } from "../api/sessions";

// The pages' server actions read the session from the request's headers (here, the cookie of
// whoever the test names) and refresh pages through next/cache: a stand-in that does nothing.
let actionCookie = "";
vi.mock("next/headers", () => ({ headers: async () => new Headers(actionCookie ? { cookie: actionCookie } : {}) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const DEMO = { name: "notes", transport: "stdio", command: process.execPath, args: ["mcp-servers/demo-server.mjs"] };
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} mcp-servers/demo-server.mjs`, TOOLSHED_MCP_ALLOW_PRIVATE: "", TOOLSHED_TEAM_CREATION: "" });

const WHO_MAY =
  /^Only an instance admin may add stdio MCP servers \(they run a command on this host\): the operator's TOOLSHED_ADMIN_EMAIL, .*--scope instance/;

let db: Db;
beforeEach(async () => {
  db = await useFreshDatabase();
  actionCookie = "";
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
});

const asPerson = (cookie: string) => browserHeaders(cookie);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function answer(response: Response | Promise<Response>) {
  const resolved = await response;
  return { status: resolved.status, body: resolved.status === 204 ? null : await resolved.json() };
}

const addServer = (catalog: string, body: unknown, headers: Record<string, string>) =>
  answer(serversRoute.POST(jsonRequest("POST", body, headers), params({ catalog })));

describe("creating teams", () => {
  it("is refused to a viewer and a team admin by default, naming who may, by the route and the server action", async () => {
    for (const [email, role] of [
      ["viewer@example.com", "viewer"],
      ["admin@example.com", "admin"],
    ] as const) {
      const cookie = await signedInAs(db, email, role);
      const refused = await answer(teamsRoute.POST(jsonRequest("POST", { name: `Mine ${role}` }, asPerson(cookie))));
      expect(refused.status, email).toBe(403);
      expect(refused.body.error.message).toMatch(
        /^Only an instance admin may create teams: the operator's TOOLSHED_ADMIN_EMAIL, .*TOOLSHED_TEAM_CREATION=everyone/,
      );
      actionCookie = cookie;
      expect(await createTeamAction({ name: `Mine ${role}` })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    }
    expect((await answer(teamsRoute.GET(jsonRequest("GET", undefined, asPerson(actionCookie))))).body.teams.map((team: { id: string }) => team.id)).toEqual([
      "default",
    ]);
  });

  it("is open to everyone signed in under TOOLSHED_TEAM_CREATION=everyone, and to instance admins always", async () => {
    const viewer = await signedInAs(db, "viewer@example.com", "viewer");
    const created = await withEnv({ TOOLSHED_TEAM_CREATION: "everyone" }, () =>
      answer(teamsRoute.POST(jsonRequest("POST", { name: "Mine" }, asPerson(viewer)))),
    );
    expect(created).toMatchObject({ status: 201, body: { team: { id: "mine", role: "admin" } } });
    actionCookie = await signedInAs(db, "root@example.com", null, "default", { instanceAdmin: true });
    expect(await createTeamAction({ name: "Platform" })).toMatchObject({ ok: true, data: { id: "platform" } });
    // Tokens never create teams, not even an instance token: a team's first admin is a person.
    expect((await answer(teamsRoute.POST(jsonRequest("POST", { name: "Bots" }, await asInstanceAdmin())))).status).toBe(403);
  });
});

describe("stdio MCP servers", () => {
  it("a team admin of a team they created cannot run code on the host through a stdio server (the attack of issue 21)", async () => {
    const cookie = await signedInAs(db, "mallory@example.com", "viewer");
    await withEnv({ TOOLSHED_TEAM_CREATION: "everyone" }, () => teamsRoute.POST(jsonRequest("POST", { name: "Mine" }, asPerson(cookie))));
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Own", team: "mine" }, asPerson(cookie)))).status).toBe(201);
    const marker = path.join(mkdtempSync(path.join(os.tmpdir(), "instance-roles-")), "ran");
    const evil = { name: "evil", transport: "stdio", command: "node", args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`] };
    const refused = await withEnv({ TOOLSHED_MCP_STDIO_COMMANDS: "node" }, () => addServer("own", evil, asPerson(cookie)));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(WHO_MAY);
    actionCookie = cookie;
    const byAction = await withEnv({ TOOLSHED_MCP_STDIO_COMMANDS: "node" }, () => addMcpServerAction("own", evil));
    expect(byAction).toMatchObject({ ok: false, error: { code: "forbidden", message: expect.stringMatching(WHO_MAY) } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(marker)).toBe(false);
    expect(processesMentioning(marker)).toEqual([]);
    expect(await listMcpServers(db, "own")).toEqual([]);
  });

  it("is refused to the default team's admin and its admin token, by the route and the server action", async () => {
    const cookie = await signedInAs(db, "admin@example.com", "admin");
    for (const headers of [asPerson(cookie), {}]) {
      const refused = await addServer("team", DEMO, headers);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(WHO_MAY);
    }
    actionCookie = cookie;
    expect(await addMcpServerAction("team", DEMO)).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(await listMcpServers(db, "team")).toEqual([]);
  });

  it("is added by an instance admin who is an admin of the catalog's team, and by an instance token", async () => {
    const root = await signedInAs(db, "root@example.com", "admin", "default", { instanceAdmin: true });
    for (const [name, headers] of [
      ["notes", asPerson(root)],
      ["notes-ci", await asInstanceAdmin()],
    ] as const) {
      const added = await addServer("team", { ...DEMO, name }, headers);
      expect(added.status, name).toBe(201);
      expect(added.body.server).toMatchObject({ name, status: "connected" });
      expect((await serverRoute.DELETE(jsonRequest("DELETE", undefined, headers), params({ catalog: "team", name }))).status).toBe(204);
    }
  });

  it("still needs the team: an instance admin who is only a viewer there, or an instance token of another team, is refused", async () => {
    const viewer = await signedInAs(db, "root@example.com", "viewer", "default", { instanceAdmin: true });
    expect((await addServer("team", DEMO, asPerson(viewer))).status).toBe(403);
    const other = await signedInAs(db, "other@example.com", null, "default", { instanceAdmin: true });
    await teamsRoute.POST(jsonRequest("POST", { name: "Other" }, asPerson(other)));
    const otherInstanceToken = await createTestToken(db, "instance", "other-instance", "other");
    expect((await addServer("team", DEMO, bearer(otherInstanceToken))).status).toBe(404);
    expect(await listMcpServers(db, "team")).toEqual([]);
  });
});

describe("HTTP MCP servers while private addresses are allowed", () => {
  const local = { name: "internal", transport: "http", url: "http://127.0.0.1:9/mcp" };

  it("are an instance admin's: a team admin gets 403 under TOOLSHED_MCP_ALLOW_PRIVATE=1, and the usual answer without it", async () => {
    const cookie = await signedInAs(db, "admin@example.com", "admin");
    const refused = await withEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" }, () => addServer("team", local, asPerson(cookie)));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(
      /^Only an instance admin may add HTTP MCP servers while the operator lets them reach private addresses \(TOOLSHED_MCP_ALLOW_PRIVATE=1\): /,
    );
    const usual = await addServer("team", local, asPerson(cookie));
    expect(usual.status).toBe(400);
    expect(usual.body.error).toMatchObject({ code: "bad_request", field: "url" });
    const byInstanceAdmin = await withEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" }, async () => addServer("team", local, await asInstanceAdmin()));
    expect(byInstanceAdmin.status).toBe(201);
    expect((await listMcpServers(db, "team")).map((server) => server.name)).toEqual(["internal"]);
  });
});

describe("reloading the plugin, skill and agent folders", () => {
  it("is an instance admin's: a team admin gets 403 by the route and the server action; an instance admin and an instance token 200", async () => {
    const admin = await signedInAs(db, "admin@example.com", "admin");
    const refused = await answer(reloadRoute.POST(jsonRequest("POST", undefined, asPerson(admin)), params({ catalog: "team" })));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/^Only an instance admin may reload the plugin, skill and agent folders/);
    expect((await answer(reloadRoute.POST(jsonRequest("POST"), params({ catalog: "team" })))).status).toBe(403);
    actionCookie = admin;
    expect(await reloadSourcesAction("team")).toMatchObject({ ok: false, error: { code: "forbidden" } });

    const root = await signedInAs(db, "root@example.com", "admin", "default", { instanceAdmin: true });
    expect((await answer(reloadRoute.POST(jsonRequest("POST", undefined, asPerson(root)), params({ catalog: "team" })))).status).toBe(200);
    expect((await answer(reloadRoute.POST(jsonRequest("POST", undefined, await asInstanceAdmin()), params({ catalog: "team" })))).status).toBe(200);
    actionCookie = root;
    expect(await reloadSourcesAction("team")).toMatchObject({ ok: true });
  });
});

describe("instance tokens", () => {
  it("are made only on the command line: the API and the team page refuse scope instance, saying so", async () => {
    const refused = await answer(tokensRoute.POST(jsonRequest("POST", { name: "root", scope: "instance" }), params({ team: "default" })));
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("A token of scope instance is made only on the command line");
    expect(refused.body.error.message).toContain("npm run --silent toolshed -- token create --team <team> --scope instance --name <name>");
    // Not even by an instance admin, or an instance token.
    actionCookie = await signedInAs(db, "root@example.com", "admin", "default", { instanceAdmin: true });
    expect(await createTokenAction("default", { name: "root", scope: "instance" })).toMatchObject({
      ok: false,
      error: { code: "bad_request", field: "scope" },
    });
    expect(
      (await tokensRoute.POST(jsonRequest("POST", { name: "root", scope: "instance" }, await asInstanceAdmin()), params({ team: "default" }))).status,
    ).toBe(400);
    const listed = await answer(tokensRoute.GET(jsonRequest("GET"), params({ team: "default" })));
    expect(listed.body.tokens.map((token: { name: string; scope: string }) => [token.name, token.scope])).toEqual([
      ["tests", "admin"],
      ["tests-instance", "instance"],
    ]);
  });
});

describe("the operator's admin", () => {
  it("is made instance admin at start, and a session someone else opened on that e-mail before, with another password, ends", async () => {
    // Someone got an account on the address first (an invitation they accepted themselves, say).
    const squatter = await signedInAs(db, "ops@example.com", "admin");
    await bootstrapAccounts(db, { TOOLSHED_ADMIN_EMAIL: "ops@example.com", TOOLSHED_ADMIN_PASSWORD: "the operator's password" }, () => undefined);
    expect((await addServer("team", DEMO, asPerson(squatter))).status).toBe(401);
    expect(await listMcpServers(db, "team")).toEqual([]);
  });
});
