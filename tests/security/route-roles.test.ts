/**
 * README's "Who may call each route" table, walked: every route and method it names is sent by
 * every kind of caller, and each is refused exactly when the table says the caller's role is too
 * low (401 without a caller, 404 for a team the caller is not in, 403 otherwise). The table must
 * also name every method of every route file, so a new route cannot be added without saying who
 * may call it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { createTeam } from "@/db/queries/teams";
import { findUserByEmail } from "@/db/queries/users";
import { apiRoutes, importRoute, routeApiRequest } from "../support/api-routes";
import { APP_ORIGIN, createTestToken, useFreshDatabase } from "../api/helpers";
import { browserHeaders, signedInAs } from "../api/sessions";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** Who the table may name, from the least to the most powerful within a team. */
const WHO = ["anyone", "signed in", "viewer", "owner or editor", "editor", "admin", "instance admin"] as const;
type Who = (typeof WHO)[number];

interface TableRow {
  path: string;
  who: Partial<Record<Method, Who>>;
  /** Methods whose cell says "a person": API tokens are refused (403) whatever their scope. */
  peopleOnly: Set<Method>;
}

/** The rows of README's route table (its section is found by its heading). */
function readRouteTable(): TableRow[] {
  const readme = readFileSync(path.join(process.cwd(), "README.md"), "utf8");
  // From its heading to the next one: README has other tables further on.
  const section = readme.split(/^### Who may call each route$/m)[1]?.split(/^#{1,3} /m)[0];
  if (!section) throw new Error('README.md has no "### Who may call each route" section');
  const lines = section.split("\n").filter((line) => line.startsWith("|"));
  const header = lines[0].split("|").map((cell) => cell.trim());
  const rows: TableRow[] = [];
  for (const line of lines.slice(2)) {
    const cells = line.split("|").map((cell) => cell.trim());
    const row: TableRow = { path: cells[1].replace(/`/g, ""), who: {}, peopleOnly: new Set() };
    for (const [index, name] of header.entries()) {
      if (!(METHODS as readonly string[]).includes(name) || !cells[index]) continue;
      const who = cells[index].replace(/\s*[,(].*$/, "").replace(/[¹²³⁴⁵]/g, "");
      if (!(WHO as readonly string[]).includes(who))
        throw new Error(`README route table: "${cells[index]}" for ${name} ${row.path} is not one of ${WHO.join(", ")}`);
      row.who[name as Method] = who as Who;
      if (/\ba person\b/.test(cells[index])) row.peopleOnly.add(name as Method);
    }
    rows.push(row);
  }
  return rows;
}

/** Callers, and what each may do in team "default" (which owns catalog "demo"). */
interface Caller {
  label: string;
  token: boolean;
  headers: Record<string, string>;
  /** null: no caller at all; "outsider": signed in, but not in team "default". */
  level: Who | null | "outsider";
  instanceAdmin: boolean;
}

const RANK: Record<string, number> = { viewer: 1, "owner or editor": 2, editor: 2, admin: 3 };

/** What a caller must get: "allowed" (anything but 401, 403, or a 404 for the team), or the refusal's status. */
function expected(caller: Caller, who: Who, teamScoped: boolean, peopleOnly: boolean): "allowed" | 401 | 403 | 404 {
  if (who === "anyone") return "allowed";
  if (caller.level === null) return 401;
  if (peopleOnly && caller.token) return 403;
  if (who === "signed in") return "allowed";
  if (who === "instance admin" && !teamScoped) return caller.instanceAdmin ? "allowed" : 403;
  if (caller.level === "outsider") return 404;
  if (who === "instance admin") return caller.instanceAdmin ? "allowed" : 403;
  return RANK[caller.level] >= RANK[who] ? "allowed" : 403;
}

let callers: Caller[];
let rows: TableRow[];
/** Values for the routes' path parameters: real ones where a refusal needs something to refuse. */
const segments: Record<string, string> = { catalog: "demo", team: "default", name: "no-such-thing", id: "no-such-id", userId: "no-such-user", path: "session" };
/** Bodies that pass validation far enough for the access check, where a route reads the body first. */
const BODIES: Record<string, unknown> = { "POST /api/catalogs": { name: "Walked", team: "default" }, "POST /api/teams": { name: "Walked team" } };

async function sessionHeaders(db: Db, email: string, role: "viewer" | "editor" | "admin" | null): Promise<Record<string, string>> {
  return browserHeaders(await signedInAs(db, email, role));
}

// Ten callers, most signed in with a password (a deliberately slow hash each): more than the default 10 s under load.
beforeAll(async () => {
  const db = await useFreshDatabase();
  rows = readRouteTable();
  await createCatalog(db, { id: "demo", name: "Demo", teamId: "default" }, "tests");
  const token = async (scope: "read" | "write" | "admin" | "instance") => ({
    authorization: `Bearer ${await createTestToken(db, scope, `walk-${scope}`)}`,
    "content-type": "application/json",
  });
  const instanceAdmin = browserHeaders(await signedInAs(db, "root@example.com", "admin", "default", { instanceAdmin: true }));
  const outsider = await sessionHeaders(db, "other@example.com", null);
  await createTeam(db, { id: "elsewhere", name: "Elsewhere" }, (await findUserByEmail(db, "other@example.com"))!.id);
  callers = [
    { label: "no caller", token: false, headers: { "content-type": "application/json", origin: APP_ORIGIN }, level: null, instanceAdmin: false },
    { label: "viewer", token: false, headers: await sessionHeaders(db, "viewer@example.com", "viewer"), level: "viewer", instanceAdmin: false },
    { label: "editor", token: false, headers: await sessionHeaders(db, "editor@example.com", "editor"), level: "editor", instanceAdmin: false },
    { label: "team admin", token: false, headers: await sessionHeaders(db, "admin@example.com", "admin"), level: "admin", instanceAdmin: false },
    { label: "instance admin", token: false, headers: instanceAdmin, level: "admin", instanceAdmin: true },
    { label: "another team's admin", token: false, headers: outsider, level: "outsider", instanceAdmin: false },
    { label: "read token", token: true, headers: await token("read"), level: "viewer", instanceAdmin: false },
    { label: "write token", token: true, headers: await token("write"), level: "editor", instanceAdmin: false },
    { label: "admin token", token: true, headers: await token("admin"), level: "admin", instanceAdmin: false },
    { label: "instance token", token: true, headers: await token("instance"), level: "admin", instanceAdmin: true },
  ];
  // A decision and its conversation, made by the admin token: the others' refusals need them to exist.
  const made = await routeApiRequest(
    new Request(`${APP_ORIGIN}/api/catalogs/demo/preselect`, {
      method: "POST",
      headers: callers[8].headers,
      body: JSON.stringify({ model: "gpt-5", agent: "build", messages: [{ role: "user", content: "read a file" }] }),
    }),
  );
  expect(made.status).toBe(200);
  const { decisionId, conversationId } = (await made.json()) as { decisionId: string; conversationId: string };
  segments.decisionId = decisionId;
  segments.conversationId = conversationId;
}, 60_000);

/** The request a caller sends for a table row's method, with the path's parameters filled in. */
function requestFor(row: TableRow, method: Method, caller: Caller): Request {
  const filled = row.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "id" && row.path.startsWith("/api/decisions/")) return segments.decisionId;
    if (name === "id" && row.path.includes("/conversations/")) return segments.conversationId;
    return segments[name];
  });
  const query = row.path.endsWith("/mcp") || row.path.endsWith("/tool-list") ? "?model=gpt-5&agent=build" : "";
  const body = method === "GET" || method === "DELETE" ? undefined : JSON.stringify(BODIES[`${method} ${row.path}`] ?? {});
  return new Request(`${APP_ORIGIN}${filled}${query}`, { method, headers: caller.headers, body });
}

/** Every (row, method) of the table, the deletion of the catalog the others use last. */
function walk(): { row: TableRow; method: Method }[] {
  const all = rows.flatMap((row) => (Object.keys(row.who) as Method[]).map((method) => ({ row, method })));
  const last = (entry: { row: TableRow; method: Method }) => entry.method === "DELETE" && entry.row.path === "/api/catalogs/{catalog}";
  return [...all.filter((entry) => !last(entry)), ...all.filter(last)];
}

describe("README's route table", () => {
  it("names every method of every route file, and nothing else", async () => {
    const documented = new Set(rows.flatMap((row) => Object.keys(row.who).map((method) => `${method} ${row.path}`)));
    const implemented = new Set<string>();
    for (const route of apiRoutes()) {
      const module = await importRoute(route.dir);
      for (const method of METHODS) {
        const handler = module[method];
        if (!handler) continue;
        // Without a caller, a method the route refuses answers 405 and any other 401 (or its public answer).
        const probe = await handler(new Request(`${APP_ORIGIN}/api`, { method }), { params: Promise.resolve({}) });
        if (probe.status !== 405) implemented.add(`${method} ${route.openApiPath}`);
      }
    }
    expect([...implemented].filter((entry) => !documented.has(entry)).sort()).toEqual([]);
    expect([...documented].filter((entry) => !implemented.has(entry)).sort()).toEqual([]);
  });

  it("is what every caller gets from every route", async () => {
    const wrong: string[] = [];
    for (const { row, method } of walk()) {
      if (row.path.startsWith("/api/auth/")) continue; // better-auth's own endpoints: tests/security/sign-in.test.ts
      const who = row.who[method]!;
      const teamScoped = /\{(catalog|team|id)\}/.test(row.path);
      // Refusals first: an allowed DELETE may remove what the refusals need.
      const peopleOnly = row.peopleOnly.has(method);
      const want = (caller: Caller) => expected(caller, who, teamScoped, peopleOnly);
      const ordered = [...callers].sort((a, b) => Number(want(a) === "allowed") - Number(want(b) === "allowed"));
      for (const caller of ordered) {
        const response = await routeApiRequest(requestFor(row, method, caller));
        await response.body?.cancel();
        const expectation = want(caller);
        const ok = expectation === "allowed" ? response.status !== 401 && response.status !== 403 : response.status === expectation;
        if (!ok) wrong.push(`${method} ${row.path} as ${caller.label}: ${response.status}, expected ${expectation} (${who})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
