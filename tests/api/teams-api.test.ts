import { beforeEach, describe, expect, it } from "vitest";
import * as invitationRoute from "@/app/api/teams/[team]/invitations/[id]/route";
import * as invitationsRoute from "@/app/api/teams/[team]/invitations/route";
import * as memberRoute from "@/app/api/teams/[team]/members/[userId]/route";
import * as membersRoute from "@/app/api/teams/[team]/members/route";
import * as tokenRoute from "@/app/api/teams/[team]/tokens/[id]/route";
import * as tokensRoute from "@/app/api/teams/[team]/tokens/route";
import * as teamsRoute from "@/app/api/teams/route";
import { createPasswordUser } from "@/app/_services/auth";
import type { Db } from "@/db/client";
import { createApiToken } from "@/db/queries/api-tokens";
import {
  DEFAULT_TEAM,
  acceptInvitation,
  createInvitation,
  createTeam,
  findOpenInvitation,
  listInvitations,
  listMembers,
  setMemberRole,
} from "@/db/queries/teams";
import { findUserByEmail } from "@/db/queries/users";
import type { Access } from "@/lib/auth/policy";
import { invitedAccountBody } from "@/lib/team-schemas";
import { APP_ORIGIN, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";
import { browserHeaders, signedInAs } from "./sessions";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

const RANK: Record<Access, number> = { read: 1, write: 2, admin: 3 };

let db: Db;
let counter = 0;
const fresh = (prefix: string) => `${prefix}-${++counter}`;

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const userId = async (email: string) => (await findUserByEmail(db, email))!.id;

/** A person in the database (no session), optionally with a role in the default team. */
async function person(email: string, role?: "viewer" | "editor" | "admin", teamId = DEFAULT_TEAM): Promise<string> {
  const user = await createPasswordUser({ email, name: email.split("@")[0], password: "a long enough password" });
  if (role) await setMemberRole(db, teamId, user.id, role);
  return user.id;
}

function call(handler: Handler, method: string, segment: Record<string, string>, headers: Record<string, string>, body?: unknown): Promise<Response> {
  return handler(jsonRequest(method, body, headers), params({ team: DEFAULT_TEAM, ...segment }));
}

beforeEach(async () => {
  db = await useFreshDatabase();
});

interface RouteCase {
  label: string;
  need: Access;
  method: string;
  handler: Handler;
  /** Path segments besides the team, made afresh for each call (a deletion needs something to delete). */
  segment?: () => Promise<Record<string, string>> | Record<string, string>;
  body?: () => unknown;
  ok: number;
}

/** Every route of the team API under /api/teams/{team}, with the access it needs. */
const ROUTES: RouteCase[] = [
  { label: "GET members", need: "read", method: "GET", handler: membersRoute.GET as Handler, ok: 200 },
  {
    label: "PUT member",
    need: "admin",
    method: "PUT",
    handler: memberRoute.PUT as Handler,
    segment: async () => ({ userId: await userId("viewer@example.com") }),
    body: () => ({ role: "viewer" }),
    ok: 200,
  },
  {
    label: "DELETE member",
    need: "admin",
    method: "DELETE",
    handler: memberRoute.DELETE as Handler,
    segment: async () => ({ userId: await person(`${fresh("leaver")}@example.com`, "viewer") }),
    ok: 204,
  },
  { label: "GET invitations", need: "admin", method: "GET", handler: invitationsRoute.GET as Handler, ok: 200 },
  {
    label: "POST invitations",
    need: "admin",
    method: "POST",
    handler: invitationsRoute.POST as Handler,
    body: () => ({ email: `${fresh("new")}@example.com`, role: "viewer" }),
    ok: 201,
  },
  {
    label: "DELETE invitation",
    need: "admin",
    method: "DELETE",
    handler: invitationRoute.DELETE as Handler,
    segment: async () => ({
      id: (await createInvitation(db, DEFAULT_TEAM, { email: `${fresh("invitee")}@example.com`, role: "viewer" }, "tests")).invitation.id,
    }),
    ok: 204,
  },
  { label: "GET tokens", need: "admin", method: "GET", handler: tokensRoute.GET as Handler, ok: 200 },
  { label: "POST tokens", need: "admin", method: "POST", handler: tokensRoute.POST as Handler, body: () => ({ name: fresh("token"), scope: "read" }), ok: 201 },
  {
    label: "DELETE token",
    need: "admin",
    method: "DELETE",
    handler: tokenRoute.DELETE as Handler,
    segment: async () => ({ id: (await createApiToken(db, DEFAULT_TEAM, { name: fresh("doomed"), scope: "read" }, "tests")).token.id }),
    ok: 204,
  },
];

describe("who may use the team API", () => {
  it("answers 401 to a caller without credentials or with an unknown token, on every route", async () => {
    await person("viewer@example.com", "viewer");
    for (const route of ROUTES) {
      for (const headers of [{ authorization: "" }, bearer("tsk_unknown")]) {
        const response = await call(route.handler, route.method, (await route.segment?.()) ?? {}, headers, route.body?.());
        expect(response.status, route.label).toBe(401);
        expect((await response.json()).error.code).toBe("unauthorized");
      }
    }
    expect((await teamsRoute.GET(jsonRequest("GET", undefined, { authorization: "" }))).status).toBe(401);
    expect((await teamsRoute.POST(jsonRequest("POST", { name: "X" }, { authorization: "" }))).status).toBe(401);
  });

  it("lets members with enough access in, refuses members with too little (403) and hides the team from outsiders (404) (table)", async () => {
    await person("viewer@example.com", "viewer");
    const outsiderId = await person("outsider@example.com");
    await createTeam(db, { name: "Other" }, outsiderId);
    const principals: { label: string; access: Access | null; headers: Record<string, string> }[] = [
      { label: "viewer", access: "read", headers: browserHeaders(await signedInAs(db, "v2@example.com", "viewer")) },
      { label: "editor", access: "write", headers: browserHeaders(await signedInAs(db, "editor@example.com", "editor")) },
      { label: "admin", access: "admin", headers: browserHeaders(await signedInAs(db, "admin@example.com", "admin")) },
      { label: "read token", access: "read", headers: bearer(await createTestToken(db, "read")) },
      { label: "write token", access: "write", headers: bearer(await createTestToken(db, "write")) },
      { label: "admin token", access: "admin", headers: bearer(await createTestToken(db, "admin", "admin-2")) },
      { label: "user of another team", access: null, headers: browserHeaders(await signedInAs(db, "stranger@example.com", "admin", "other")) },
      { label: "token of another team", access: null, headers: bearer(await createTestToken(db, "admin", "theirs", "other")) },
    ];
    for (const principal of principals) {
      for (const route of ROUTES) {
        const label = `${principal.label} → ${route.label}`;
        const response = await call(route.handler, route.method, (await route.segment?.()) ?? {}, principal.headers, route.body?.());
        if (principal.access === null) {
          expect(response.status, label).toBe(404);
          expect(await response.json(), label).toEqual({ error: { code: "not_found", message: 'Team "default" not found.', field: "team" } });
        } else if (RANK[principal.access] >= RANK[route.need]) {
          expect(response.status, label).toBe(route.ok);
        } else {
          expect(response.status, label).toBe(403);
          expect((await response.json()).error.code, label).toBe("forbidden");
        }
      }
    }
  });

  it("answers 404 for a team that does not exist, to everyone", async () => {
    const response = await membersRoute.GET(jsonRequest("GET"), params({ team: "nowhere" }));
    expect(response.status).toBe(404);
  });

  it("refuses a cross-site cookie write and writes nothing", async () => {
    const cookie = await signedInAs(db, "admin@example.com", "admin");
    for (const headers of [
      { cookie, origin: "https://evil.example", "content-type": "application/json" },
      { cookie, origin: APP_ORIGIN, "content-type": "text/plain" },
    ]) {
      const response = await call(invitationsRoute.POST as Handler, "POST", {}, headers, { email: "planted@example.com", role: "admin" });
      expect(response.status).toBe(403);
    }
    expect(await listInvitations(db, DEFAULT_TEAM)).toEqual([]);
  });
});

describe("teams", () => {
  it("lists a person's teams with their role and a token's own team with its scope", async () => {
    const cookie = await signedInAs(db, "admin@example.com", "admin");
    await createTeam(db, { name: "Payments" }, await userId("admin@example.com"));
    const mine = await (await teamsRoute.GET(jsonRequest("GET", undefined, { cookie }))).json();
    expect(mine.teams).toEqual([
      { id: "default", name: expect.any(String), role: "admin" },
      { id: "payments", name: "Payments", role: "admin" },
    ]);
    const tokens = await (await teamsRoute.GET(jsonRequest("GET", undefined, bearer(await createTestToken(db, "read"))))).json();
    expect(tokens.teams).toEqual([{ id: "default", name: expect.any(String), scope: "read" }]);
  });

  it("creates a team with its creator (an instance admin) as admin; tokens may not create teams", async () => {
    const cookie = await signedInAs(db, "founder@example.com", null, "default", { instanceAdmin: true });
    const created = await teamsRoute.POST(jsonRequest("POST", { name: "Support Bots" }, browserHeaders(cookie)));
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ team: { id: "support-bots", name: "Support Bots", role: "admin" } });
    expect(await listMembers(db, "support-bots")).toMatchObject([{ email: "founder@example.com", role: "admin" }]);

    const withId = await teamsRoute.POST(jsonRequest("POST", { name: "Another", id: "ops" }, browserHeaders(cookie)));
    expect((await withId.json()).team.id).toBe("ops");
    const duplicate = await teamsRoute.POST(jsonRequest("POST", { name: "support bots" }, browserHeaders(cookie)));
    expect(duplicate.status).toBe(409);
    const unknownField = await teamsRoute.POST(jsonRequest("POST", { name: "X", colour: "red" }, browserHeaders(cookie)));
    expect(unknownField.status).toBe(400);
    const empty = await teamsRoute.POST(jsonRequest("POST", { name: "  " }, browserHeaders(cookie)));
    expect((await empty.json()).error).toMatchObject({ code: "bad_request", field: "name" });

    for (const scope of ["admin", "instance"] as const) {
      const byToken = await teamsRoute.POST(jsonRequest("POST", { name: "Token Team" }, { authorization: `Bearer ${await createTestToken(db, scope)}` }));
      expect(byToken.status).toBe(403);
      expect((await byToken.json()).error.code).toBe("forbidden");
    }
  });
});

describe("members", () => {
  it("lists members with their role, changes a role and removes a member", async () => {
    const viewerId = await person("viewer@example.com", "viewer");
    await person("editor@example.com", "editor");
    const viewer = bearer(await createTestToken(db, "read"));
    const listed = await (await call(membersRoute.GET as Handler, "GET", {}, viewer)).json();
    expect(listed.members.map((member: { email: string; role: string }) => [member.email, member.role])).toEqual([
      ["editor@example.com", "editor"],
      ["viewer@example.com", "viewer"],
    ]);
    expect(listed.members[0]).toEqual({ userId: expect.any(String), email: "editor@example.com", name: "editor", role: "editor", since: expect.any(String) });

    const promoted = await call(memberRoute.PUT as Handler, "PUT", { userId: viewerId }, {}, { role: "editor" });
    expect(promoted.status).toBe(200);
    expect((await promoted.json()).member).toMatchObject({ email: "viewer@example.com", role: "editor" });

    expect((await call(memberRoute.PUT as Handler, "PUT", { userId: viewerId }, {}, { role: "owner" })).status).toBe(400);
    const stranger = await person("stranger@example.com");
    const notMember = await call(memberRoute.PUT as Handler, "PUT", { userId: stranger }, {}, { role: "admin" });
    expect(notMember.status).toBe(404);
    expect((await listMembers(db, DEFAULT_TEAM)).map((member) => member.email)).not.toContain("stranger@example.com");

    expect((await call(memberRoute.DELETE as Handler, "DELETE", { userId: viewerId }, {})).status).toBe(204);
    expect((await listMembers(db, DEFAULT_TEAM)).map((member) => member.email)).toEqual(["editor@example.com"]);
    expect((await call(memberRoute.DELETE as Handler, "DELETE", { userId: viewerId }, {})).status).toBe(404);
  });

  it("never demotes or removes a team's last admin (409)", async () => {
    const cookie = await signedInAs(db, "solo@example.com", null);
    const soloId = await userId("solo@example.com");
    await createTeam(db, { name: "Solo" }, soloId);
    const headers = browserHeaders(cookie);
    const at = { team: "solo", userId: soloId };
    const demoted = await memberRoute.PUT(jsonRequest("PUT", { role: "viewer" }, headers), params(at));
    expect(demoted.status).toBe(409);
    expect((await demoted.json()).error.code).toBe("conflict");
    expect((await memberRoute.DELETE(jsonRequest("DELETE", undefined, headers), params(at))).status).toBe(409);
    expect(await listMembers(db, "solo")).toMatchObject([{ email: "solo@example.com", role: "admin" }]);

    // With a second admin, the first may step down.
    const secondId = await person("second@example.com", "admin", "solo");
    expect((await memberRoute.PUT(jsonRequest("PUT", { role: "viewer" }, headers), params(at))).status).toBe(200);
    const second = bearer((await createApiToken(db, "solo", { name: "solo-admin", scope: "admin" }, "tests")).secret);
    expect((await memberRoute.DELETE(jsonRequest("DELETE", undefined, second), params({ team: "solo", userId: secondId }))).status).toBe(409);
  });
});

describe("invitations", () => {
  it("creates an invitation with a link shown once, lists and revokes it", async () => {
    const cookie = await signedInAs(db, "admin@example.com", "admin");
    const created = await call(invitationsRoute.POST as Handler, "POST", {}, browserHeaders(cookie), { email: " New.Person@Example.com ", role: "editor" });
    expect(created.status).toBe(201);
    const { invitation, link } = await created.json();
    expect(invitation).toEqual({
      id: expect.any(String),
      email: "new.person@example.com",
      role: "editor",
      invitedBy: "admin@example.com",
      expiresAt: expect.any(String),
      acceptedAt: null,
      acceptedBy: null,
    });
    expect(link).toMatch(new RegExp(`^${APP_ORIGIN}/invite/[A-Za-z0-9_-]{43}$`));
    const secret = link.split("/invite/")[1];
    expect(await findOpenInvitation(db, secret)).toMatchObject({ teamId: "default", email: "new.person@example.com", role: "editor" });

    const listed = await call(invitationsRoute.GET as Handler, "GET", {}, {});
    const text = await listed.text();
    expect(JSON.parse(text).invitations).toEqual([invitation]);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("tokenHash");

    const again = await call(invitationsRoute.POST as Handler, "POST", {}, {}, { email: "new.person@example.com", role: "viewer" });
    expect(again.status).toBe(409);
    const member = await call(invitationsRoute.POST as Handler, "POST", {}, {}, { email: "admin@example.com", role: "viewer" });
    expect(member.status).toBe(409);
    const bad = await call(invitationsRoute.POST as Handler, "POST", {}, {}, { email: "not an address", role: "viewer" });
    expect((await bad.json()).error).toMatchObject({ code: "bad_request", field: "email" });

    const byToken = await call(invitationsRoute.POST as Handler, "POST", {}, {}, { email: "ci-invited@example.com", role: "viewer" });
    expect((await byToken.json()).invitation.invitedBy).toBe("token:tests");

    expect((await call(invitationRoute.DELETE as Handler, "DELETE", { id: invitation.id }, {})).status).toBe(204);
    expect(await findOpenInvitation(db, secret)).toBeUndefined();
    expect((await call(invitationRoute.DELETE as Handler, "DELETE", { id: invitation.id }, {})).status).toBe(404);
  });

  it("lets an invitation's secret be used once", async () => {
    const created = await call(invitationsRoute.POST as Handler, "POST", {}, {}, { email: "joiner@example.com", role: "editor" });
    const { link, invitation } = await created.json();
    const secret = link.split("/invite/")[1];
    const joinerId = await person("joiner@example.com");
    expect(await acceptInvitation(db, secret, joinerId)).toMatchObject({ teamId: "default", role: "editor" });
    expect(await listMembers(db, DEFAULT_TEAM)).toMatchObject([{ email: "joiner@example.com", role: "editor" }]);
    const otherId = await person("other@example.com");
    await expect(acceptInvitation(db, secret, otherId)).rejects.toThrow(/not valid/);
    expect(await findOpenInvitation(db, secret)).toBeUndefined();
    expect((await listMembers(db, DEFAULT_TEAM)).map((member) => member.email)).toEqual(["joiner@example.com"]);
    // An accepted invitation is listed as such, with who accepted it, and can no longer be revoked.
    const listed = (await (await call(invitationsRoute.GET as Handler, "GET", {}, {})).json()).invitations;
    expect(listed[0]).toMatchObject({
      id: invitation.id,
      acceptedAt: expect.any(String),
      acceptedBy: { userId: joinerId, name: "joiner", email: "joiner@example.com", emailVerified: true },
    });
    expect((await call(invitationRoute.DELETE as Handler, "DELETE", { id: invitation.id }, {})).status).toBe(404);
  });
});

describe("API tokens", () => {
  it("creates a token whose secret is shown once, lists tokens without secrets, and revokes", async () => {
    const cookie = await signedInAs(db, "admin@example.com", "admin");
    const created = await call(tokensRoute.POST as Handler, "POST", {}, browserHeaders(cookie), { name: "ci", scope: "read" });
    expect(created.status).toBe(201);
    const { token, secret } = await created.json();
    expect(secret).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    expect(token).toEqual({
      id: expect.any(String),
      teamId: "default",
      name: "ci",
      scope: "read",
      prefix: secret.slice(0, 10),
      createdBy: "admin@example.com",
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });

    // The read token reads members, but may not see or make tokens.
    const read = bearer(secret);
    expect((await call(membersRoute.GET as Handler, "GET", {}, read)).status).toBe(200);
    expect((await call(tokensRoute.POST as Handler, "POST", {}, read, { name: "escalated", scope: "admin" })).status).toBe(403);
    expect((await call(tokensRoute.GET as Handler, "GET", {}, read)).status).toBe(403);

    const listed = await call(tokensRoute.GET as Handler, "GET", {}, {});
    const text = await listed.text();
    expect(text).not.toContain(secret);
    expect(text).not.toContain("tokenHash");
    const ci = JSON.parse(text).tokens.find((entry: { name: string }) => entry.name === "ci");
    expect(ci).toMatchObject({ prefix: token.prefix, scope: "read", createdBy: "admin@example.com", lastUsedAt: expect.any(String), revokedAt: null });
    expect(JSON.parse(text).tokens.map((entry: { name: string }) => entry.name)).not.toContain("escalated");

    const duplicate = await call(tokensRoute.POST as Handler, "POST", {}, {}, { name: "ci", scope: "write" });
    expect(duplicate.status).toBe(409);
    const badScope = await call(tokensRoute.POST as Handler, "POST", {}, {}, { name: "x", scope: "root" });
    expect((await badScope.json()).error).toMatchObject({ code: "bad_request", field: "scope" });
    const byToken = await call(tokensRoute.POST as Handler, "POST", {}, {}, { name: "made-by-token", scope: "read" });
    expect((await byToken.json()).token.createdBy).toBe("token:tests");

    expect((await call(tokenRoute.DELETE as Handler, "DELETE", { id: token.id }, browserHeaders(cookie))).status).toBe(204);
    const afterwards = await call(membersRoute.GET as Handler, "GET", {}, read);
    expect(afterwards.status).toBe(401);
    expect((await afterwards.json()).error.code).toBe("unauthorized");
    const revoked = (await (await call(tokensRoute.GET as Handler, "GET", {}, {})).json()).tokens.find((entry: { name: string }) => entry.name === "ci");
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect((await call(tokenRoute.DELETE as Handler, "DELETE", { id: token.id }, {})).status).toBe(404);
  });

  it("does not revoke another team's token through this team", async () => {
    const ownerId = await person("owner@example.com");
    await createTeam(db, { name: "Other" }, ownerId);
    const theirs = await createApiToken(db, "other", { name: "theirs", scope: "read" }, "tests");
    expect((await call(tokenRoute.DELETE as Handler, "DELETE", { id: theirs.token.id }, {})).status).toBe(404);
    expect((await membersRoute.GET(jsonRequest("GET", undefined, bearer(theirs.secret)), params({ team: "other" }))).status).toBe(200);
  });
});

describe("the invitation's account form", () => {
  it("wants a name, a long enough password and the same password twice", () => {
    const body = invitedAccountBody(10);
    expect(body.safeParse({ name: " Ed ", password: "long enough!", confirm: "long enough!" })).toMatchObject({ success: true, data: { name: "Ed" } });
    const issues = (input: unknown) => body.safeParse(input).error?.issues.map((issue) => issue.path.join("."));
    expect(issues({ name: "Ed", password: "short", confirm: "short" })).toEqual(["password"]);
    expect(issues({ name: "Ed", password: "long enough!", confirm: "long enough?" })).toEqual(["confirm"]);
    expect(issues({ name: "", password: "long enough!", confirm: "long enough!" })).toEqual(["name"]);
    expect(issues({ name: "Ed", password: "long enough!", confirm: "long enough!", email: "other@example.com" })).toEqual([""]);
  });
});
