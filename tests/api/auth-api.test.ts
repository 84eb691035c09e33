import { beforeEach, describe, expect, it } from "vitest";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import * as decisionsRoute from "@/app/api/catalogs/[catalog]/decisions/route";
import * as exportRoute from "@/app/api/catalogs/[catalog]/export/route";
import * as importRoute from "@/app/api/catalogs/[catalog]/import/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as reloadRoute from "@/app/api/catalogs/[catalog]/sources/reload/route";
import * as rulesRoute from "@/app/api/catalogs/[catalog]/rules/route";
import * as toolListRoute from "@/app/api/catalogs/[catalog]/tool-list/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import * as decisionRoute from "@/app/api/decisions/[id]/route";
import type { Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { createCatalog } from "@/db/queries/catalogs";
import { listDecisions } from "../support/decisions";
import { findTool } from "@/db/queries/tools";
import { createTeam } from "@/db/queries/teams";
import { seed } from "@/db/seed";
import type { Access } from "@/lib/auth/policy";
import { resetRateLimits } from "@/app/_services/rate-limits";
import { APP_ORIGIN, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";
import { browserHeaders, signedInAs } from "./sessions";

const demo = params({ catalog: "demo" });
const newTool = (name: string) => ({ name, summary: "A tool.", description: "A tool.", inputSchema: { type: "object", properties: {} } });
const pipeline = { model: "gpt-5", agent: "build" };

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface RouteCase {
  label: string;
  need: Access;
  /** Only an instance admin (with `need` in the team) may. */
  instance?: true;
  method: string;
  handler: Handler;
  segment?: Record<string, string>;
  body?: () => unknown;
}

let counter = 0;
const fresh = () => `tool_${++counter}`;

/** One route of each family, with the access it needs. */
const ROUTES: RouteCase[] = [
  { label: "GET tools", need: "read", method: "GET", handler: toolsRoute.GET as Handler },
  { label: "GET export", need: "read", method: "GET", handler: exportRoute.GET as Handler },
  { label: "GET decisions", need: "read", method: "GET", handler: decisionsRoute.GET as Handler },
  { label: "POST tool-list", need: "read", method: "POST", handler: toolListRoute.POST as Handler, body: () => pipeline },
  {
    label: "POST preselect",
    need: "read",
    method: "POST",
    handler: preselectRoute.POST as Handler,
    body: () => ({ ...pipeline, messages: [{ role: "user", content: "post to slack" }] }),
  },
  { label: "POST tool-search", need: "read", method: "POST", handler: toolSearchRoute.POST as Handler, body: () => ({ ...pipeline, query: "slack" }) },
  { label: "POST tools", need: "write", method: "POST", handler: toolsRoute.POST as Handler, body: () => newTool(fresh()) },
  {
    label: "PATCH tool",
    need: "write",
    method: "PATCH",
    handler: toolRoute.PATCH as Handler,
    segment: { name: "slack_post_message" },
    body: () => ({ tags: ["x"] }),
  },
  { label: "PUT rules", need: "write", method: "PUT", handler: rulesRoute.PUT as Handler, body: () => ({ searchServiceConfigured: true }) },
  {
    label: "PUT agent",
    need: "write",
    method: "PUT",
    handler: agentRoute.PUT as Handler,
    segment: { name: "plan" },
    body: () => ({ name: "plan", mode: "primary", permissions: [{ pattern: "*", action: "allow" }], baseTools: [] }),
  },
  {
    label: "POST import",
    need: "write",
    method: "POST",
    handler: importRoute.POST as Handler,
    body: () => ({ tools: [{ name: fresh(), description: "Imported.", parameters: { type: "object", properties: {} } }] }),
  },
  {
    label: "POST mcp-servers",
    need: "admin",
    method: "POST",
    handler: serversRoute.POST as Handler,
    body: () => ({ name: "x", transport: "http", url: "https://mcp.example.com/mcp" }),
  },
  { label: "POST sources/reload", need: "admin", instance: true, method: "POST", handler: reloadRoute.POST as Handler, body: () => ({}) },
];

const RANK: Record<Access, number> = { read: 1, write: 2, admin: 3 };

function call(route: RouteCase, headers: Record<string, string>): Promise<Response> {
  return route.handler(jsonRequest(route.method, route.body?.(), headers), params({ catalog: "demo", ...route.segment }));
}

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  await seed(db, { demo: true });
  process.env.TOOLSHED_MCP_ALLOW_PRIVATE = "";
});

describe("who may call what", () => {
  it("answers 401 with the error shape to a caller without credentials, on every route family", async () => {
    for (const route of [...ROUTES, { label: "GET catalogs", need: "read" as const, method: "GET", handler: catalogsRoute.GET as Handler }]) {
      const response = await call(route, { authorization: "" });
      expect(response.status, route.label).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect((await response.json()).error.code).toBe("unauthorized");
    }
  });

  it("refuses a malformed, unknown or revoked token", async () => {
    for (const authorization of ["Basic abc", "Bearer tsk_nope", "Bearer"]) {
      expect((await call(ROUTES[0], { authorization })).status, authorization).toBe(401);
    }
  });

  it("lets each token scope and each team role do exactly what it should (table)", async () => {
    const principals: { label: string; access: Access; instance?: true; headers: Record<string, string> }[] = [
      { label: "read token", access: "read", headers: { authorization: `Bearer ${await createTestToken(db, "read")}` } },
      { label: "write token", access: "write", headers: { authorization: `Bearer ${await createTestToken(db, "write")}` } },
      { label: "admin token", access: "admin", headers: { authorization: `Bearer ${await createTestToken(db, "admin", "admin-2")}` } },
      { label: "instance token", access: "admin", instance: true, headers: { authorization: `Bearer ${await createTestToken(db, "instance")}` } },
      { label: "viewer", access: "read", headers: browserHeaders(await signedInAs(db, "viewer@example.com", "viewer")) },
      { label: "editor", access: "write", headers: browserHeaders(await signedInAs(db, "editor@example.com", "editor")) },
      { label: "admin", access: "admin", headers: browserHeaders(await signedInAs(db, "admin@example.com", "admin")) },
    ];
    for (const principal of principals) {
      for (const route of ROUTES) {
        const response = await call(route, principal.headers);
        const allowed = RANK[principal.access] >= RANK[route.need] && (!route.instance || principal.instance);
        if (allowed) expect([401, 403], `${principal.label} → ${route.label}: ${response.status}`).not.toContain(response.status);
        else {
          expect(response.status, `${principal.label} → ${route.label}`).toBe(403);
          expect((await response.json()).error.code).toBe("forbidden");
        }
      }
    }
  });

  it("hides another team's catalogs: 404 as if they did not exist, and they are not listed", async () => {
    const outsider = await signedInAs(db, "outsider@example.com", null);
    await createTeam(db, { name: "Other" }, (await (await import("@/db/queries/users")).findUserByEmail(db, "outsider@example.com"))!.id);
    await createCatalog(db, { name: "Theirs", teamId: "other" }, "test");
    const response = await call(ROUTES[0], browserHeaders(outsider));
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toBe('Catalog "demo" not found.');
    const listed = await (await catalogsRoute.GET(jsonRequest("GET", undefined, { cookie: outsider }))).json();
    expect(listed.catalogs.map((catalog: { id: string }) => catalog.id)).toEqual(["theirs"]);
    const otherTeamToken = await createTestToken(db, "admin", "other-admin", "other");
    expect((await call(ROUTES[0], { authorization: `Bearer ${otherTeamToken}` })).status).toBe(404);
    // A decision of the demo catalog is not found either.
    await call(ROUTES[5], {});
    const [decision] = await listDecisions(db, "demo");
    expect((await decisionRoute.GET(jsonRequest("GET", undefined, { cookie: outsider }), params({ id: decision.id }))).status).toBe(404);
  });
});

describe("requests from other sites", () => {
  it("refuses cookie writes from a foreign Origin, without an Origin, or as text/plain or a form, and writes nothing", async () => {
    const cookie = await signedInAs(db, "editor@example.com", "editor");
    const attempts: Record<string, string>[] = [
      { cookie, origin: "https://evil.example", "content-type": "application/json" },
      { cookie, "content-type": "application/json" },
      { cookie, origin: APP_ORIGIN, "content-type": "text/plain" },
      { cookie, origin: APP_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      { cookie, origin: "null", "content-type": "application/json" },
    ];
    for (const headers of attempts) {
      const response = await toolsRoute.POST(jsonRequest("POST", newTool("planted"), headers), demo);
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await findTool(db, "demo", "planted")).toBeUndefined();
    const sameSite = await toolsRoute.POST(
      jsonRequest("POST", newTool("planted"), { cookie, "sec-fetch-site": "same-origin", "content-type": "application/json" }),
      demo,
    );
    expect(sameSite.status).toBe(201);
  });

  it("names the signed-in person or the token in the audit log; a header cannot choose it", async () => {
    const cookie = await signedInAs(db, "editor@example.com", "editor");
    await toolsRoute.POST(jsonRequest("POST", newTool("by_person"), { ...browserHeaders(cookie), "x-toolshed-actor": "someone-else" }), demo);
    await toolsRoute.POST(jsonRequest("POST", newTool("by_token"), { "x-toolshed-actor": "someone-else" }), demo);
    expect((await listAudit(db, "demo", { subjectKind: "tool", subject: "by_person" }))[0].actor).toBe("editor@example.com");
    expect((await listAudit(db, "demo", { subjectKind: "tool", subject: "by_token" }))[0].actor).toBe("token:tests");
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once a caller's write budget is spent, and other callers go on", async () => {
    process.env.TOOLSHED_RATE_LIMIT_WRITE = "3";
    resetRateLimits();
    try {
      const token = await createTestToken(db, "write");
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await toolsRoute.POST(jsonRequest("POST", newTool(`limited_${i}`), { authorization: `Bearer ${token}` }), demo)).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const refused = await toolsRoute.POST(jsonRequest("POST", newTool("limited_x"), { authorization: `Bearer ${token}` }), demo);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await refused.json()).error.code).toBe("rate_limited");
      expect(await findTool(db, "demo", "limited_x")).toBeUndefined();
      expect((await toolsRoute.POST(jsonRequest("POST", newTool("other_caller")), demo)).status).toBe(201);
    } finally {
      delete process.env.TOOLSHED_RATE_LIMIT_WRITE;
      resetRateLimits();
    }
  });
});

describe("catalog deletion and creation", () => {
  it("lets only admins delete a catalog, and creates catalogs in a team the caller may write", async () => {
    const editor = await signedInAs(db, "editor@example.com", "editor");
    expect((await catalogRoute.DELETE(jsonRequest("DELETE", undefined, browserHeaders(editor)), demo)).status).toBe(403);
    const created = await catalogsRoute.POST(jsonRequest("POST", { name: "Mine" }, browserHeaders(editor)));
    expect(created.status).toBe(201);
    expect((await created.json()).catalog.teamId).toBe("default");
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Elsewhere", team: "other" }, browserHeaders(editor)))).status).toBe(404);
    const viewer = await signedInAs(db, "viewer@example.com", "viewer");
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Nope" }, browserHeaders(viewer)))).status).toBe(403);
  });
});
