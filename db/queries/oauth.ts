import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { writeTransaction, type Db } from "../client";
import { oauthAccessTokens, oauthClients, oauthConsents, oauthRefreshTokens, oauthResources } from "../tables";

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
 * Whether the person has a consent on record for the client: the grant that a gateway token stands
 * for. Revoking the grant deletes it, and the gateway asks on every request, so a token issued
 * before is refused from the next one on, however long it has left.
 */
export async function hasOAuthConsent(db: Db, userId: string, clientId: string): Promise<boolean> {
  const rows = await db
    .select({ id: oauthConsents.id })
    .from(oauthConsents)
    .where(and(eq(oauthConsents.userId, userId), eq(oauthConsents.clientId, clientId)))
    .limit(1);
  return rows.length > 0;
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
