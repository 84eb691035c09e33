import "server-only";
import { randomUUID } from "node:crypto";
import { and, desc, eq, exists, gt, isNull } from "drizzle-orm";
import { writeTransaction, type Db } from "../client";
import { oauthAccessTokens, oauthClients, oauthConsents, oauthRefreshTokens, oauthResources, users } from "../tables";

/**
 * Toolshed's own reads and writes of the OAuth provider's tables (the provider writes them through
 * better-auth's adapter, db/auth-adapter.ts): the resources it may issue tokens for, and what a
 * person allowed a client. Lists are JSON text there (see authDatabaseAdapter).
 */

/**
 * Makes `identifier` (a catalog gateway's URL) a resource tokens may be issued for, unless it is
 * one already; an operator's changes to an existing row (disabled, shorter lifetimes) stay.
 */
export async function ensureOAuthResource(db: Db, identifier: string, name: string): Promise<void> {
  const now = new Date();
  await db
    .insert(oauthResources)
    .values({ id: randomUUID(), identifier, name, disabled: false, policyVersion: 1, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: oauthResources.identifier });
}

/** What a consent page says of a client: the name and address it gives itself (its metadata document's, for CIMD clients). */
export async function findOAuthClientLabel(db: Db, clientId: string): Promise<{ name: string | null; uri: string | null } | undefined> {
  return (await db.select({ name: oauthClients.name, uri: oauthClients.uri }).from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1))[0];
}

/**
 * The person an access token names, if they still exist and still have a consent on record for
 * the client: the grant the token stands for. Revoking the grant deletes the consent, and the
 * gateway asks on every request, so a token issued before is refused from the next one on, however
 * long it has left. One query, on the gateway's every request.
 */
export async function grantHolder(db: Db, userId: string, clientId: string): Promise<{ id: string; email: string; name: string } | undefined> {
  const consented = db
    .select({ id: oauthConsents.id })
    .from(oauthConsents)
    .where(and(eq(oauthConsents.userId, userId), eq(oauthConsents.clientId, clientId)));
  const rows = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.id, userId), exists(consented)))
    .limit(1);
  return rows[0];
}

/**
 * Revokes what the person allowed the client: the consent, and the refresh and opaque access
 * tokens issued under it, so the client can neither use nor renew them. False when there was none.
 */
export async function revokeOAuthGrant(db: Db, userId: string, clientId: string): Promise<boolean> {
  return writeTransaction(db, async (tx) => {
    const deleted = await tx
      .delete(oauthConsents)
      .where(and(eq(oauthConsents.userId, userId), eq(oauthConsents.clientId, clientId)))
      .returning({ id: oauthConsents.id });
    await tx.delete(oauthAccessTokens).where(and(eq(oauthAccessTokens.userId, userId), eq(oauthAccessTokens.clientId, clientId)));
    await tx.delete(oauthRefreshTokens).where(and(eq(oauthRefreshTokens.userId, userId), eq(oauthRefreshTokens.clientId, clientId)));
    return deleted.length > 0;
  });
}

/** What a person allowed a client, as Settings lists it. */
export interface OAuthGrant {
  clientId: string;
  clientName: string | null;
  scopes: string[];
  /** The resources (catalog gateways' URLs) it was last allowed for, and those its live refresh tokens are for. */
  resources: string[];
  grantedAt: string;
}

/** A list field of the provider's rows (JSON text, see authDatabaseAdapter); empty when absent or unreadable. */
function listOf(text: string | null): string[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** The grants a person has given OAuth clients, newest first. */
export async function listOAuthGrants(db: Db, userId: string): Promise<OAuthGrant[]> {
  const consents = await db
    .select({
      clientId: oauthConsents.clientId,
      clientName: oauthClients.name,
      scopes: oauthConsents.scopes,
      resources: oauthConsents.resources,
      at: oauthConsents.updatedAt,
    })
    .from(oauthConsents)
    .innerJoin(oauthClients, eq(oauthClients.clientId, oauthConsents.clientId))
    .where(eq(oauthConsents.userId, userId))
    .orderBy(desc(oauthConsents.updatedAt));
  // A consent keeps only the resources of its last authorization; refresh tokens still alive name the others.
  const refreshTokens = await db
    .select({ clientId: oauthRefreshTokens.clientId, resources: oauthRefreshTokens.resources })
    .from(oauthRefreshTokens)
    .where(and(eq(oauthRefreshTokens.userId, userId), isNull(oauthRefreshTokens.revoked), gt(oauthRefreshTokens.expiresAt, new Date())));
  // One per client: the provider keeps one consent per person and client, but two authorizations at once may leave two.
  const newest = consents.filter((consent, index) => consents.findIndex((other) => other.clientId === consent.clientId) === index);
  return newest.map((consent) => {
    const live = refreshTokens.filter((token) => token.clientId === consent.clientId).flatMap((token) => listOf(token.resources));
    return {
      clientId: consent.clientId,
      clientName: consent.clientName,
      scopes: listOf(consent.scopes),
      resources: [...new Set([...listOf(consent.resources), ...live])].sort(),
      grantedAt: (consent.at ?? new Date(0)).toISOString(),
    };
  });
}
