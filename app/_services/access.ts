import "server-only";
import { headers } from "next/headers";
import { notFound as pageNotFound, redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { principalOfToken } from "@/db/queries/api-tokens";
import { getDecision, type Decision } from "@/db/queries/decisions";
import { userIsInstanceAdmin } from "@/db/queries/instance-admins";
import { rolesOfUser, teamOfCatalog } from "@/db/queries/teams";
import { accessIn, actorOf, grants, type Access, type Principal, type UserPrincipal } from "@/lib/auth/policy";
import { safeReturnPath } from "@/lib/auth/forms";
import { configuredOrigins, crossSiteProblem, REQUESTED_PATH_HEADER } from "@/lib/auth/origin";
import { ToolshedError, notFound } from "@/lib/errors";
import { handle } from "@/lib/http";
import type { RateLimitClass } from "@/lib/rate-limit";
import { getAuth } from "./auth";
import { observed } from "./observed";
import { consumeRateLimit } from "./rate-limits";

const ACCESS_WORDS: Record<Access, string> = { read: "viewer", write: "editor", admin: "admin" };

function unauthorized(message: string): ToolshedError {
  return new ToolshedError("unauthorized", message);
}

async function sessionPrincipal(requestHeaders: Headers): Promise<UserPrincipal | undefined> {
  const session = await getAuth().api.getSession({ headers: requestHeaders });
  if (!session) return undefined;
  const { id, email, name } = session.user;
  const db = getDb();
  return { kind: "user", id, email, name, roles: await rolesOfUser(db, id), instanceAdmin: await userIsInstanceAdmin(db, id) };
}

/**
 * Who sent a request: an API token (`Authorization: Bearer`), else the browser session. A write
 * carried by a session cookie must also show it came from our own pages (see lib/auth/origin).
 */
export async function authenticate(request: Request): Promise<Principal> {
  const authorization = request.headers.get("authorization");
  if (authorization) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!bearer) throw unauthorized("The Authorization header must be `Bearer <token>`.");
    const principal = await principalOfToken(getDb(), bearer[1]);
    if (!principal) throw unauthorized("This API token is not valid or has been revoked.");
    return principal;
  }
  const principal = await sessionPrincipal(request.headers);
  if (!principal) throw unauthorized("Sign in, or send an API token as `Authorization: Bearer <token>`.");
  const problem = crossSiteProblem(request, configuredOrigins());
  if (problem) throw new ToolshedError("forbidden", problem);
  return principal;
}

/**
 * The access the principal has in the catalog's team, when it is at least `need`. A catalog of a
 * team the principal is not part of answers 404, exactly like one that does not exist.
 */
export async function requireCatalogAccess(principal: Principal, catalogId: string, need: Access): Promise<Access> {
  const teamId = await teamOfCatalog(getDb(), catalogId);
  const access = teamId === undefined ? null : accessIn(principal, teamId);
  if (access === null) throw notFound(`Catalog "${catalogId}"`, "catalog");
  if (!grants(access, need)) {
    const who = principal.kind === "token" ? `This token's scope is "${principal.scope}"` : `Your role in team "${teamId}" is ${ACCESS_WORDS[access]}`;
    throw new ToolshedError("forbidden", `${who}; this needs ${ACCESS_WORDS[need]} (or higher).`);
  }
  return access;
}

/** A decision is visible to whoever may read its catalog; to anyone else it does not exist. */
export async function requireDecisionAccess(principal: Principal, id: string): Promise<Decision> {
  const decision = await getDecision(getDb(), id);
  try {
    await requireCatalogAccess(principal, decision.catalogId, "read");
  } catch (error) {
    if (error instanceof ToolshedError && error.code === "not_found") throw notFound(`Decision "${id}"`, "id");
    throw error;
  }
  return decision;
}

/** The same for a team itself (members, invitations, tokens). */
export function requireTeamAccess(principal: Principal, teamId: string, need: Access): Access {
  const access = accessIn(principal, teamId);
  if (access === null) throw notFound(`Team "${teamId}"`, "team");
  if (!grants(access, need)) throw new ToolshedError("forbidden", `This needs the ${ACCESS_WORDS[need]} role in team "${teamId}".`);
  return access;
}

export async function enforceRateLimit(principal: Principal, kind: RateLimitClass): Promise<void> {
  const verdict = await consumeRateLimit(kind, `${principal.kind}:${principal.id}`);
  if (!verdict.ok) {
    throw new ToolshedError(
      "rate_limited",
      `Too many ${kind} requests; try again in ${verdict.retryAfterSeconds} s.`,
      undefined,
      undefined,
      verdict.retryAfterSeconds,
    );
  }
}

export interface RouteContext<P> {
  request: Request;
  params: P;
  principal: Principal;
  /** Who the audit log names for changes made by this request. */
  actor: string;
}

export interface RouteOptions<P> {
  /** The rate-limit class; by default reads for GET and writes for every other method. */
  limit?: RateLimitClass | ((context: RouteContext<P>) => RateLimitClass);
}

function defaultLimit(request: Request): RateLimitClass {
  return request.method === "GET" || request.method === "HEAD" ? "read" : "write";
}

/** A route handler for any signed-in caller: the handler checks what it touches. Measured and traced (see observed). */
export function signedInRoute<P = Record<string, never>>(handler: (context: RouteContext<P>) => Promise<Response> | Response, options: RouteOptions<P> = {}) {
  return observed(
    handle(async (request: Request, segment?: { params: Promise<P> }) => {
      const principal = await authenticate(request);
      const context: RouteContext<P> = { request, params: (await segment?.params) ?? ({} as P), principal, actor: actorOf(principal) };
      const limit = typeof options.limit === "function" ? options.limit(context) : (options.limit ?? defaultLimit(request));
      await enforceRateLimit(principal, limit);
      return handler(context);
    }),
  );
}

/** A route handler under /api/catalogs/{catalog}: the caller needs `need` in the catalog's team. */
export function catalogRoute<P extends { catalog: string }>(
  need: Access,
  handler: (context: RouteContext<P> & { access: Access }) => Promise<Response> | Response,
  options: RouteOptions<P> = {},
) {
  return signedInRoute<P>(async (context) => {
    const access = await requireCatalogAccess(context.principal, context.params.catalog, need);
    return handler({ ...context, access });
  }, options);
}

/** A server action's caller: signed in (Next.js already refuses actions posted from other origins). */
export async function actionPrincipal(): Promise<UserPrincipal> {
  const principal = await sessionPrincipal(await headers());
  if (!principal) throw unauthorized("Your session has ended: sign in again.");
  return principal;
}

/** For a server action that touches a catalog: checks the role and the write rate, returns the audit actor. */
export async function authorizeCatalogAction(catalogId: string, need: Access): Promise<{ principal: UserPrincipal; actor: string }> {
  const principal = await actionPrincipal();
  await requireCatalogAccess(principal, catalogId, need);
  await enforceRateLimit(principal, need === "read" ? "read" : "write");
  return { principal, actor: actorOf(principal) };
}

/** The signed-in person of a route handler's request (its session cookie), if any: for GET routes a browser is sent to. */
export function requestPerson(request: Request): Promise<UserPrincipal | undefined> {
  return sessionPrincipal(request.headers);
}

/** For pages that anyone may open (sign-in, invitations, the header): the signed-in person, if any. */
export async function currentUser(): Promise<UserPrincipal | undefined> {
  return sessionPrincipal(await headers());
}

/** For pages: the signed-in person, or a redirect to the sign-in page that comes back to the address asked for. */
export async function pageUser(): Promise<UserPrincipal> {
  const requestHeaders = await headers();
  const principal = await sessionPrincipal(requestHeaders);
  if (!principal) redirect(`/sign-in?next=${encodeURIComponent(safeReturnPath(requestHeaders.get(REQUESTED_PATH_HEADER)))}`);
  return principal;
}

/** A person's access to a catalog: null when the catalog does not exist or they may not see it. */
export async function catalogAccessOf(principal: UserPrincipal, catalogId: string): Promise<Access | null> {
  const teamId = await teamOfCatalog(getDb(), catalogId);
  return teamId === undefined ? null : accessIn(principal, teamId);
}

/** For a catalog's pages: the person's access there; a catalog they cannot see is a 404 page. */
export async function pageCatalogAccess(catalogId: string): Promise<{ principal: UserPrincipal; access: Access }> {
  const principal = await pageUser();
  const access = await catalogAccessOf(principal, catalogId);
  if (access === null) pageNotFound();
  return { principal, access };
}
