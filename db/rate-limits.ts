import "server-only";
import { RateLimiterMemory, RateLimiterPostgres } from "rate-limiter-flexible";
import type { LimiterFactory } from "@/lib/rate-limit";
import { type Db, postgresPoolOf } from "./client";

/**
 * The table of the rate-limit counters on PostgreSQL, made by a migration
 * (db/migrations-pg/0005_rate_limits.sql) rather than by the library at start, so that instances
 * never race to create it and the app's role needs no CREATE right. Not in db/schema-pg.ts: only
 * the library reads and writes it, with its own SQL, and SQLite has no counterpart.
 */
const RATE_LIMITS_TABLE = "rate_limits";

/**
 * Limiters whose counters are rows of the database at `db` (a PostgreSQL handle), shared by every
 * instance on it: N instances together allow each limit once, not N times.
 *
 * When the database cannot be reached, a limiter falls back to counting in this process's memory
 * (the library's insurance limiter) instead of failing the request or letting it through unlimited:
 * each instance then still enforces every limit on its own (so N instances allow up to N times a
 * limit while it lasts), and a request that needs no database, or one that arrives once it is
 * back, is answered rather than refused for a counter.
 */
export function postgresLimiters(db: Db): LimiterFactory {
  const pool = postgresPoolOf(db);
  return (options) =>
    new RateLimiterPostgres({
      ...options,
      storeClient: pool,
      storeType: "pool",
      tableName: RATE_LIMITS_TABLE,
      tableCreated: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
}
