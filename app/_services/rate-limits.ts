import "server-only";
import { getDb } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { postgresLimiters } from "@/db/rate-limits";
import { recordRateLimitRefusal } from "@/lib/observability/metrics";
import { createRateLimits, type RateLimitClass, type RateLimitResult, type RateLimits } from "@/lib/rate-limit";

const shared = globalThis as unknown as { toolshedRateLimits?: RateLimits };

/**
 * Charges one request of `kind` to `key` on the process-wide limiters, configured from
 * `process.env` at first use (an invalid variable rejects every call, naming the variable). On
 * PostgreSQL, where several instances may serve one database, the counters are the database's,
 * shared by them all (db/rate-limits.ts); on SQLite, which one instance serves, this process's.
 * A refusal is counted in the metrics (toolshed_rate_limit_refusals_total).
 */
export async function consumeRateLimit(kind: RateLimitClass, key: string): Promise<RateLimitResult> {
  shared.toolshedRateLimits ??= createRateLimits(process.env, usesPostgres() ? postgresLimiters(getDb()) : undefined);
  const verdict = await shared.toolshedRateLimits.consume(kind, key);
  if (!verdict.ok) recordRateLimitRefusal(kind);
  return verdict;
}

/** Forgets the limiters (their counters, in memory); the next call reads the environment again. For tests. */
export function resetRateLimits(): void {
  delete shared.toolshedRateLimits;
}
