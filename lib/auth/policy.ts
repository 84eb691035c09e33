/**
 * Who may do what: team roles for people, scopes for API tokens, one ladder of access levels; and
 * instance admins, who alone may do what reaches outside the database.
 */

import { ToolshedError } from "../errors";

export const TEAM_ROLES = ["viewer", "editor", "admin"] as const;
/** The scopes a team admin may give a token (team page, API). */
export const TEAM_TOKEN_SCOPES = ["read", "write", "admin"] as const;
/**
 * Every scope: `instance` is a team admin's access in its team plus an instance admin's powers;
 * `metrics` reads `GET /api/metrics` (every team's figures) and nothing of any team. Both are made
 * only on the command line.
 */
export const TOKEN_SCOPES = [...TEAM_TOKEN_SCOPES, "instance", "metrics"] as const;

export type TeamRole = (typeof TEAM_ROLES)[number];
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * What a request needs: `read` (look, simulate, preselect, search, replay), `write` (change tools,
 * rules, agents, imports) or `admin` (sources, MCP servers, members, tokens, deleting catalogs).
 */
export type Access = "read" | "write" | "admin";

const ACCESS_RANK: Record<Access, number> = { read: 1, write: 2, admin: 3 };
const ROLE_ACCESS: Record<TeamRole, Access> = { viewer: "read", editor: "write", admin: "admin" };
const SCOPE_ACCESS: Record<TokenScope, Access | null> = { read: "read", write: "write", admin: "admin", instance: "admin", metrics: null };

export interface UserPrincipal {
  kind: "user";
  id: string;
  email: string;
  name: string;
  /** The user's role in each team they belong to. */
  roles: Record<string, TeamRole>;
  /** May do what reaches outside the database (see isInstanceAdmin); gives no access to any team. */
  instanceAdmin: boolean;
}

export interface TokenPrincipal {
  kind: "token";
  id: string;
  name: string;
  teamId: string;
  scope: TokenScope;
}

export type Principal = UserPrincipal | TokenPrincipal;

/** The access a principal has in a team, or null when it is not part of that team at all. */
export function accessIn(principal: Principal, teamId: string): Access | null {
  if (principal.kind === "token") return principal.teamId === teamId ? SCOPE_ACCESS[principal.scope] : null;
  // Own properties only: a team id such as "constructor" must not find Object.prototype's.
  const role = Object.hasOwn(principal.roles, teamId) ? principal.roles[teamId] : undefined;
  return role ? ROLE_ACCESS[role] : null;
}

export function grants(have: Access, need: Access): boolean {
  return ACCESS_RANK[have] >= ACCESS_RANK[need];
}

/** A principal as one string, `user:<id>` or `token:<id>`: what owns a conversation or a gateway session. */
export function principalKey(principal: Principal): string {
  return `${principal.kind}:${principal.id}`;
}

/**
 * Whether a caller (its `principalKey` and access in the catalog) may delete a conversation: the
 * one who started it, or an editor or higher. One without a recorded owner (started before owners
 * were recorded): editors and higher only. Deleting it breaks the replay of its decisions.
 */
export function mayDeleteConversation(caller: { key: string; access: Access }, owner: string | null): boolean {
  return grants(caller.access, "write") || (owner !== null && owner === caller.key);
}

export const CONVERSATION_DELETE_REFUSAL = "Only the person or token that started this conversation, or an editor (or higher), may delete it.";

/**
 * Whether the principal may do what reaches outside the database: run a stdio MCP server, reach
 * private addresses, re-read the deployment's folders, create teams. Distinct from being a team's
 * admin: it gives no access to a team, and team access is still checked beside it.
 */
export function isInstanceAdmin(principal: Principal): boolean {
  return principal.kind === "token" ? principal.scope === "instance" : principal.instanceAdmin;
}

/** The people who are instance admins, in the words of a refusal. */
const INSTANCE_ADMIN_PEOPLE =
  "the operator's TOOLSHED_ADMIN_EMAIL, the admin who opened the setup link, and people the operator made instance admin " +
  "(`npm run --silent toolshed -- instance-admin grant --email <e-mail>`)";

/** 403 unless the principal is an instance admin; `what` completes "Only an instance admin may …". */
export function requireInstanceAdmin(principal: Principal, what: string): void {
  if (isInstanceAdmin(principal)) return;
  throw new ToolshedError(
    "forbidden",
    `Only an instance admin may ${what}: ${INSTANCE_ADMIN_PEOPLE}; or a token of scope instance, made only on the command line ` +
      "(`npm run --silent toolshed -- token create --team <team> --scope instance --name <name>`).",
  );
}

const TOKEN_ACTOR = "token:";

/** The name the audit log records: the signed-in person's email, or the token's name. */
export function actorOf(principal: Principal): string {
  return principal.kind === "user" ? principal.email : `${TOKEN_ACTOR}${principal.name}`;
}

/** What the audit log shows for changes recorded before actorOf named who made them (they said "web"). */
export const UNKNOWN_ACTOR = "unknown (before actor names were recorded)";

/** The actor of the changes the process makes itself, syncing its sources (local folders, MCP servers). */
export const SYNC_ACTOR = "sync";

/**
 * Who made a change, in words: "Ada Lovelace (ada@example.com)" for a person (their name when
 * `personName` is known), "token ci" for an API token, the process itself ("sync", "seed") as is.
 */
export function describeActor(actor: string, personName?: string): string {
  if (actor.startsWith(TOKEN_ACTOR)) return `token ${actor.slice(TOKEN_ACTOR.length)}`;
  if (actor === "web" || actor === "") return UNKNOWN_ACTOR;
  return personName && personName !== actor ? `${personName} (${actor})` : actor;
}

/** Teams whose catalogs the principal may see. */
export function teamsOf(principal: Principal): string[] {
  if (principal.kind === "user") return Object.keys(principal.roles);
  return SCOPE_ACCESS[principal.scope] === null ? [] : [principal.teamId];
}

/**
 * 403 unless the principal may read the metrics (`GET /api/metrics`): they count every team's
 * requests and calls and name every catalog, tool and MCP server, so only an instance admin, a
 * token of scope instance, or one of scope metrics.
 */
export function requireMetricsReader(principal: Principal): void {
  if (isInstanceAdmin(principal) || (principal.kind === "token" && principal.scope === "metrics")) return;
  throw new ToolshedError(
    "forbidden",
    "Only an instance admin may read the metrics: they count every team's requests and calls. Automation uses a token of scope metrics, made only on the command line " +
      "(`npm run --silent toolshed -- token create --team <team> --scope metrics --name <name>`).",
  );
}

export function isTeamRole(value: unknown): value is TeamRole {
  return typeof value === "string" && (TEAM_ROLES as readonly string[]).includes(value);
}

export const TEAM_CREATION_ENV = "TOOLSHED_TEAM_CREATION";
export type TeamCreation = "admins" | "everyone";

/** Who may create teams: instance admins (`admins`, the default) or every signed-in person (`everyone`). */
export function teamCreationPolicy(env: Record<string, string | undefined> = process.env): TeamCreation {
  const value = env[TEAM_CREATION_ENV]?.trim() || "admins";
  if (value === "admins" || value === "everyone") return value;
  throw new Error(`${TEAM_CREATION_ENV} is "${value}": set it to admins (only instance admins create teams; the default) or everyone.`);
}

/**
 * Whether the principal may create a team. Never a token: a new team's first admin is the person
 * who created it, and a token is nobody.
 */
export function mayCreateTeams(principal: Principal, env: Record<string, string | undefined> = process.env): boolean {
  return principal.kind === "user" && (teamCreationPolicy(env) === "everyone" || isInstanceAdmin(principal));
}

/** 403 unless the principal may create a team, saying who may. */
export function requireTeamCreation(principal: Principal, env: Record<string, string | undefined> = process.env): asserts principal is UserPrincipal {
  if (principal.kind === "token")
    throw new ToolshedError("forbidden", "API tokens cannot create teams: a team's first admin is the person who creates it; sign in to create one.");
  if (!mayCreateTeams(principal, env)) {
    throw new ToolshedError(
      "forbidden",
      `Only an instance admin may create teams: ${INSTANCE_ADMIN_PEOPLE}. The operator may open it to everyone with ${TEAM_CREATION_ENV}=everyone.`,
    );
  }
}
