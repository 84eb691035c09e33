import "server-only";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Db } from "./client";
import {
  accounts,
  jsonWebKeys,
  oauthAccessTokens,
  oauthClientAssertions,
  oauthClientResources,
  oauthClients,
  oauthConsents,
  oauthRefreshTokens,
  oauthResources,
  sessions,
  users,
  verifications,
} from "./tables";

/**
 * better-auth's accounts, sessions and verifications, and its JWT and OAuth provider plugins'
 * tables (signing keys, OAuth clients, tokens, consents, resources), in our database through its
 * Drizzle adapter.
 */
export function authDatabaseAdapter(db: Db) {
  return drizzleAdapter(db, {
    // "sqlite" on PostgreSQL too: with it the adapter stores lists (string[]) and JSON fields as JSON
    // text, which both databases' tables declare (db/schema-pg.ts keeps the row types of
    // db/schema.ts); with "pg" it would hand PostgreSQL arrays and objects instead. Nothing else in
    // the adapter differs between the two but case-insensitive matching (LOWER … LIKE, valid on both).
    provider: "sqlite",
    schema: {
      user: users,
      session: sessions,
      account: accounts,
      verification: verifications,
      jwks: jsonWebKeys,
      oauthClient: oauthClients,
      oauthResource: oauthResources,
      oauthClientResource: oauthClientResources,
      oauthRefreshToken: oauthRefreshTokens,
      oauthAccessToken: oauthAccessTokens,
      oauthConsent: oauthConsents,
      oauthClientAssertion: oauthClientAssertions,
    },
    // The adapter's transactions would call db.transaction itself, without writeTransaction's hold
    // on the shared connection (db/client.ts): other requests' statements could land inside them.
    transaction: false,
  });
}
