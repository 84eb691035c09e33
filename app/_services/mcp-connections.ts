import "server-only";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Db } from "@/db/client";
import { listCatalogs } from "@/db/queries/catalogs";
import { getMcpServerConfig, perUserMcpServers } from "@/db/queries/mcp-servers";
import { deleteMcpUserCredential, listMcpUserConnections, saveMcpUserCredential } from "@/db/queries/mcp-user-credentials";
import type { UserPrincipal } from "@/lib/auth/policy";
import { ToolshedError } from "@/lib/errors";
import { log } from "@/lib/observability/log";
import type { McpServerConfig } from "@/lib/sources/mcp";
import { secretScrubber } from "@/lib/sources/mcp/client";
import { guardedFetch } from "@/lib/sources/mcp/network-policy";
import { isAnswerFromIssuer, isPendingSignIn, PersonalOAuthProvider } from "@/lib/sources/mcp/user-credentials";
import { requireCatalogAccess } from "./access";
import { callbackUrlOf, oauthStoreOf } from "./mcp-personal";
import { disconnectPersonFrom, syncMcpServer } from "./sources";

/**
 * A person's own connections to the MCP servers that take each person's credential: what the
 * Connections page lists, and connecting (a secret entered once, or an OAuth sign-in at the
 * server's authorization server) and disconnecting. Only the person touches theirs, in catalogs
 * they may read; no value ever comes back out.
 */

/** Why a person's sign-in at a server did not complete, in words for the Connections page (the callback names one by its key). */
export const CONNECTION_FAILURES = {
  session: "Sign in to Toolshed first, then connect again: a sign-in belongs to the person who started it.",
  mismatch: "That answer does not match a sign-in you started here (or it came too late, or was used already): connect again.",
  server: "That MCP server is not one of your catalogs' (any more).",
  signin: "The sign-in at the server did not complete: connect again, or ask a team admin to look at the server.",
} as const;

export type ConnectionFailure = keyof typeof CONNECTION_FAILURES;

/** A per-person server as its Connections page shows it to one person: whether they are connected, since when. */
export interface McpConnectionView {
  catalogId: string;
  catalogName: string;
  server: string;
  mode: "per-user-secret" | "per-user-oauth";
  connectedAt: string | null;
}

/** The per-person servers of every catalog the person may read, each with their own connection's state. */
export async function connectionsOf(db: Db, principal: UserPrincipal): Promise<McpConnectionView[]> {
  const catalogs = await listCatalogs(db, Object.keys(principal.roles));
  const names = new Map(catalogs.map((catalog) => [catalog.id, catalog.name]));
  const mine = await listMcpUserConnections(db, principal.id);
  const servers = await perUserMcpServers(db, [...names.keys()]);
  return servers.map(({ catalogId, name, mode }) => {
    const own = mine.find((connection) => connection.catalogId === catalogId && connection.server === name);
    const kindMatches = own?.kind === (mode === "per-user-oauth" ? "oauth" : "secret");
    return { catalogId, catalogName: names.get(catalogId) ?? catalogId, server: name, mode, connectedAt: kindMatches ? (own?.connectedAt ?? null) : null };
  });
}

/** The server's full configuration, when it takes each person's credential in `mode`; a catalog the person may not read is not found. */
async function perUserServer(db: Db, principal: UserPrincipal, catalogId: string, server: string, mode: string): Promise<McpServerConfig> {
  await requireCatalogAccess(principal, catalogId, "read");
  const config = await getMcpServerConfig(db, catalogId, server);
  const actual = config.credentials?.mode ?? "shared";
  if (actual !== mode)
    throw new ToolshedError("bad_request", `The MCP server "${server}" does not take ${MODE_WORDS[mode] ?? mode} (it is ${MODE_WORDS[actual]}).`);
  return config;
}

const MODE_WORDS: Record<string, string> = {
  shared: "a shared credential",
  "per-user-secret": "a secret of each person's",
  "per-user-oauth": "each person's OAuth sign-in",
};

/**
 * The person's own connection changed: their old connection closes, and the server's tools are
 * listed again with it (the person connected last lists them: app/_services/mcp-personal.ts).
 */
async function afterConnecting(db: Db, catalogId: string, server: string, userId: string): Promise<void> {
  await disconnectPersonFrom(catalogId, server, userId);
  await syncMcpServer(db, catalogId, server).catch((error: unknown) =>
    log.warn({ err: error }, `The sync of ${catalogId}/${server} after a person connected failed:`),
  );
}

/** Stores the person's secret for the server (replacing theirs), encrypted; it is never shown again. */
export async function connectWithSecret(db: Db, principal: UserPrincipal, catalogId: string, server: string, secret: string): Promise<void> {
  await perUserServer(db, principal, catalogId, server, "per-user-secret");
  await saveMcpUserCredential(db, catalogId, server, principal.id, { kind: "secret", secrets: { secret }, connectedAt: new Date() });
  await afterConnecting(db, catalogId, server, principal.id);
}

/** Forgets the person's credential for the server and closes their connection to it. */
export async function disconnectFromServer(db: Db, principal: UserPrincipal, catalogId: string, server: string): Promise<void> {
  await requireCatalogAccess(principal, catalogId, "read");
  await deleteMcpUserCredential(db, catalogId, server, principal.id);
  await disconnectPersonFrom(catalogId, server, principal.id);
}

/** What the authorization server's failure says, scrubbed of the server's secrets (a URL's query values). */
function upstreamSignInFailure(config: McpServerConfig, what: string, error: unknown): ToolshedError {
  return new ToolshedError("upstream_failed", `${what}: ${secretScrubber(config).scrub(error instanceof Error ? error.message : String(error))}`);
}

const providerFor = (db: Db, principal: UserPrincipal, catalogId: string, server: string) =>
  new PersonalOAuthProvider(oauthStoreOf(db, catalogId, server, principal.id), server, callbackUrlOf(catalogId, server), true);

/**
 * Starts the person's OAuth sign-in at the server: the SDK discovers its authorization server
 * from the server's own metadata, registers Toolshed as a client for this person if needed, and
 * gives the address to send the browser to (with PKCE, and a `state` kept for the callback). A
 * person whose refresh token still works is connected again at once.
 */
export async function startOAuthConnection(
  db: Db,
  principal: UserPrincipal,
  catalogId: string,
  server: string,
): Promise<{ authorizationUrl: string } | { connected: true }> {
  const config = await perUserServer(db, principal, catalogId, server, "per-user-oauth");
  if (config.transport !== "http" || config.credentials?.mode !== "per-user-oauth")
    throw new ToolshedError("bad_request", "Only HTTP servers sign in with OAuth.");
  const provider = providerFor(db, principal, catalogId, server);
  const result = await auth(provider, { serverUrl: config.url, scope: config.credentials.scope, fetchFn: guardedFetch() }).catch((error: unknown) => {
    throw upstreamSignInFailure(config, `Could not start the sign-in at "${server}"`, error);
  });
  if (result === "AUTHORIZED") {
    await afterConnecting(db, catalogId, server, principal.id);
    return { connected: true };
  }
  // The browser is sent there: an http(s) page only, whatever the server's metadata says.
  const authorizationUrl = provider.authorizationUrl;
  if (!authorizationUrl || !["http:", "https:"].includes(authorizationUrl.protocol)) {
    throw new ToolshedError("upstream_failed", `The authorization server of "${server}" gave no http(s) address to sign in at.`);
  }
  return { authorizationUrl: authorizationUrl.href };
}

/**
 * Finishes the sign-in the person started: only the `state` of their own sign-in under way for
 * this server, still in time, is taken (another person's, a forged one, or one for another server
 * is refused), and only from the authorization server it went to (RFC 9207's `iss`); then the SDK
 * exchanges the code with their PKCE verifier and stores their tokens.
 */
export async function finishOAuthConnection(
  db: Db,
  principal: UserPrincipal,
  catalogId: string,
  server: string,
  answer: { code?: string; state?: string; error?: string; iss?: string },
): Promise<void> {
  const config = await perUserServer(db, principal, catalogId, server, "per-user-oauth");
  const store = oauthStoreOf(db, catalogId, server, principal.id);
  const state = await store.read();
  if (!answer.state || !isPendingSignIn(state, answer.state)) {
    throw new ToolshedError("forbidden", `This answer of "${server}"'s sign-in does not match a sign-in you started here, or it came too late: connect again.`);
  }
  await store.write({ ...state, pending: undefined }, state.tokens !== undefined);
  if (!isAnswerFromIssuer(state, answer.iss)) {
    throw new ToolshedError("forbidden", `This answer does not come from "${server}"'s authorization server (its issuer differs): connect again.`);
  }
  if (answer.error || !answer.code) throw new ToolshedError("bad_request", `The sign-in at "${server}" did not complete (${answer.error ?? "no code"}).`);
  if (config.transport !== "http") throw new ToolshedError("bad_request", "Only HTTP servers sign in with OAuth.");
  await auth(providerFor(db, principal, catalogId, server), { serverUrl: config.url, authorizationCode: answer.code, fetchFn: guardedFetch() }).catch(
    (error: unknown) => {
      throw upstreamSignInFailure(config, `The sign-in at "${server}" failed`, error);
    },
  );
  await afterConnecting(db, catalogId, server, principal.id);
}
