import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/db/client";
import { createApiToken } from "@/db/queries/api-tokens";
import { DEFAULT_TEAM } from "@/db/queries/teams";
import type { TokenScope } from "@/lib/auth/policy";
import { resetRateLimits } from "@/app/_services/rate-limits";
import { freshDatabase } from "../support/fresh-database";

// Route handlers read plugins, skills and agent files from these folders: empty unless a test fills them.
const noLocalSources = mkdtempSync(path.join(os.tmpdir(), "toolshed-no-sources-"));
process.env.TOOLSHED_PLUGINS_DIR ??= noLocalSources;
process.env.TOOLSHED_SKILLS_DIR ??= noLocalSources;
process.env.TOOLSHED_AGENTS_DIR ??= noLocalSources;

/** The origin route handlers accept browser writes from (TOOLSHED_URL's default). */
export const APP_ORIGIN = "http://localhost:3000";

/** The admin-scope token of team "default" that jsonRequest sends unless told otherwise. */
let defaultToken: string | undefined;
/** The database useFreshDatabase made last, and its instance-scope token once a test asks for it (asInstanceAdmin). */
let currentDb: Db | undefined;
let instanceToken: string | undefined;

/** Points the route handlers' getDb() at a fresh in-memory database, with a fresh admin token and rate limits. */
export async function useFreshDatabase(): Promise<Db> {
  const db = await freshDatabase();
  (globalThis as { toolshedDb?: Db }).toolshedDb = db;
  defaultToken = await createTestToken(db, "admin", "tests");
  currentDb = db;
  instanceToken = undefined;
  resetRateLimits();
  return db;
}

/**
 * Headers of an instance-scope token of team "default" (made at the first call after
 * useFreshDatabase), for what only instance admins may do: add stdio MCP servers, reload sources.
 */
export async function asInstanceAdmin(): Promise<Record<string, string>> {
  if (!currentDb) throw new Error("Call useFreshDatabase first.");
  instanceToken ??= await createTestToken(currentDb, "instance", "tests-instance");
  return { authorization: `Bearer ${instanceToken}` };
}

/** A token of team "default" (or another team) with the given scope; its secret. */
export async function createTestToken(db: Db, scope: TokenScope, name = `test-${scope}`, teamId = DEFAULT_TEAM): Promise<string> {
  return (await createApiToken(db, teamId, { name, scope }, "tests")).secret;
}

/**
 * A JSON request to a route handler, sent with the default admin token. Pass `authorization: ""`
 * to send none, or another `authorization` or `cookie` to act as someone else.
 */
export function jsonRequest(method: string, body?: unknown, headers: Record<string, string> = {}): Request {
  const text = typeof body === "string" ? body : body === undefined ? undefined : JSON.stringify(body);
  const sent: Record<string, string> = { "content-type": "application/json", ...headers };
  if (sent.authorization === undefined && sent.cookie === undefined && defaultToken) sent.authorization = `Bearer ${defaultToken}`;
  if (sent.authorization === "") delete sent.authorization;
  return new Request(`${APP_ORIGIN}/api`, { method, body: text, headers: sent });
}

export function params<T extends Record<string, string>>(values: T) {
  return { params: Promise.resolve(values) };
}

/** Any request (a query string, no body) sent with the default admin token. */
export function apiRequest(url: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (!headers.has("authorization") && defaultToken) headers.set("authorization", `Bearer ${defaultToken}`);
  return new Request(new URL(url, APP_ORIGIN), { ...init, headers });
}

/**
 * POSTs a document to catalog "team"'s import (`?dryRun=1` in `query`), with the default admin
 * token unless `headers` carry another; its status and JSON answer.
 */
export async function postTeamImport(document: unknown, query = "", headers: Record<string, string> = {}) {
  const { POST } = await import("@/app/api/catalogs/[catalog]/import/route");
  const request = apiRequest(`/api/catalogs/team/import${query}`, {
    method: "POST",
    body: JSON.stringify(document),
    headers: { "content-type": "application/json", ...headers },
  });
  const response = await POST(request, params({ catalog: "team" }));
  return { status: response.status, body: await response.json() };
}
