import "server-only";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { type Db, isPostgres } from "./client";
import { accounts, sessions, users, verifications } from "./tables";

/** better-auth's accounts, sessions and verifications, in our database through its Drizzle adapter. */
export function authDatabaseAdapter(db: Db) {
  return drizzleAdapter(db, {
    provider: isPostgres(db) ? "pg" : "sqlite",
    schema: { user: users, session: sessions, account: accounts, verification: verifications },
    // The adapter's transactions would call db.transaction itself, without writeTransaction's hold
    // on the shared connection (db/client.ts): other requests' statements could land inside them.
    transaction: false,
  });
}
