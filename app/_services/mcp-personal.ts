import "server-only";
import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import { getMcpUserCredential, lastConnectedUser, saveMcpUserCredential } from "@/db/queries/mcp-user-credentials";
import { publicOrigin } from "@/lib/auth/origin";
import type { Principal } from "@/lib/auth/policy";
import type { McpServerConfig, McpToolResult } from "@/lib/sources/mcp";
import { isPerUser } from "@/lib/sources/mcp/config";
import { type McpOAuthStore, PersonalOAuthProvider, personalKey, withPersonalSecret } from "@/lib/sources/mcp/user-credentials";

/**
 * Which credential reaches an MCP server whose credentials are per person: the calling person's
 * own, on a connection of their own (keyed `catalog/server/person`, never reused for anyone
 * else), and never a shared one. A caller who is no person (an API token) or who has not connected
 * gets a tool error that says where to connect.
 */

/** Where a person connects to a server: the Connections page (absolute: tool errors are read far from Toolshed). */
const connectLinkOf = (catalogId: string, server: string) =>
  `${publicOrigin()}/connections?catalog=${encodeURIComponent(catalogId)}&server=${encodeURIComponent(server)}`;

/** Where the server's authorization server sends the person back: one address per server, so a code meant for one never completes another's sign-in. */
export const callbackUrlOf = (catalogId: string, server: string) =>
  `${publicOrigin()}/connections/${encodeURIComponent(catalogId)}/${encodeURIComponent(server)}/callback`;

/** The person's OAuth state for the server, in their credential's row. */
export function oauthStoreOf(db: Db, catalogId: string, server: string, userId: string): McpOAuthStore {
  return {
    read: async () => {
      const credential = await getMcpUserCredential(db, catalogId, server, userId);
      return credential?.kind === "oauth" ? (credential.secrets.oauth ?? {}) : {};
    },
    write: async (oauth, connected) => {
      const current = await getMcpUserCredential(db, catalogId, server, userId);
      const since = current?.kind === "oauth" && current.connectedAt ? current.connectedAt : new Date();
      await saveMcpUserCredential(db, catalogId, server, userId, { kind: "oauth", secrets: { oauth }, connectedAt: connected ? since : null });
    },
  };
}

/** The OAuth client a pooled connection signs its requests with: the person's own, for a person's connection to a per-person OAuth server. */
export function personalOAuthProvider(key: string, config: McpServerConfig): PersonalOAuthProvider | undefined {
  const [catalogId, server, userId] = key.split("/");
  if (!userId || config.transport !== "http" || config.credentials?.mode !== "per-user-oauth") return undefined;
  return new PersonalOAuthProvider(oauthStoreOf(getDb(), catalogId, server, userId), server, callbackUrlOf(catalogId, server), false);
}

/** A connection's target: its key in the pool, and the configuration it connects with. */
export interface McpTarget {
  key: string;
  config: McpServerConfig;
}

/** The person's connection to the server, when they have connected: their key and configuration (their secret in it, or their OAuth client beside it). */
async function personalTargetOf(db: Db, serverKey: string, catalogId: string, config: McpServerConfig, userId: string): Promise<McpTarget | undefined> {
  const credential = await getMcpUserCredential(db, catalogId, config.name, userId);
  if (!credential?.connectedAt) return undefined;
  const key = personalKey(serverKey, userId);
  if (config.credentials?.mode === "per-user-oauth") return credential.kind === "oauth" ? { key, config } : undefined;
  const secret = credential.kind === "secret" ? credential.secrets.secret : undefined;
  return secret === undefined ? undefined : { key, config: withPersonalSecret(config, secret) };
}

/** What a caller reads when the server needs their own credential and the call cannot have it. */
function connectFirstResult(catalogId: string, server: string, principal: Principal | undefined): McpToolResult {
  const why =
    principal?.kind === "user"
      ? "you have not connected your own account to it yet (or your sign-in there expired)"
      : "this call was made with an API token, which belongs to no person: call it as a signed-in person (an MCP client signed in with OAuth, or the playground)";
  const text = `The MCP server "${server}" is called with each person's own credential, and ${why}. Connect at ${connectLinkOf(catalogId, server)}, then call again.`;
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * Where a call of the server goes: the shared connection of a shared server; for a per-person
 * one, the calling person's own, or what they must do first (no fallback to any other credential).
 */
export async function callTargetOf(
  db: Db,
  serverKey: string,
  catalogId: string,
  config: McpServerConfig,
  principal: Principal | undefined,
): Promise<McpTarget | { refusal: McpToolResult }> {
  if (!isPerUser(config)) return { key: serverKey, config };
  const target = principal?.kind === "user" ? await personalTargetOf(db, serverKey, catalogId, config, principal.id) : undefined;
  return target ?? { refusal: connectFirstResult(catalogId, config.name, principal) };
}

/**
 * Where the server's tools are listed from. A per-person server lists them with the credential of
 * the person who connected last (each person connecting syncs it: app/_services/mcp-connections.ts):
 * a server's tool list seldom depends on who asks, and no shared credential exists to ask with.
 * The listing is the catalog's, which every reader sees, so it must not depend on secrets of its
 * own: tool results, which may, reach only the person who called.
 */
export async function listingTargetOf(db: Db, serverKey: string, catalogId: string, config: McpServerConfig): Promise<McpTarget | { error: string }> {
  if (!isPerUser(config)) return { key: serverKey, config };
  const userId = await lastConnectedUser(db, catalogId, config.name);
  const target = userId ? await personalTargetOf(db, serverKey, catalogId, config, userId) : undefined;
  return target ?? { error: nobodyConnectedYet(catalogId, config.name) };
}

/** The credential a per-person server is listed with (its secret, or its tokens and client secret); none for a shared one. */
export async function listingSecretsOf(db: Db, catalogId: string, server: string): Promise<string[]> {
  const userId = await lastConnectedUser(db, catalogId, server).catch(() => undefined);
  const credential = userId ? await getMcpUserCredential(db, catalogId, server, userId) : undefined;
  if (!credential) return [];
  const { secret, oauth } = credential.secrets;
  const client = oauth?.client as { client_secret?: string } | undefined;
  return [secret, oauth?.tokens?.access_token, oauth?.tokens?.refresh_token, client?.client_secret].filter((value): value is string => Boolean(value));
}

/** Why a per-person server has no tools listed yet. */
export const nobodyConnectedYet = (catalogId: string, server: string) =>
  `Each person connects to "${server}" with their own credential, and nobody has yet: its tools are listed once someone connects (${connectLinkOf(catalogId, server)}).`;
