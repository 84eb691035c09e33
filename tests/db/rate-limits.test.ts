import { afterEach, describe, expect, it } from "vitest";
import { consumeRateLimit, resetRateLimits } from "@/app/_services/rate-limits";
import { closeDb, type Db, executeOnPostgres, isPostgres, openPostgres } from "@/db/client";
import { postgresLimiters } from "@/db/rate-limits";
import { sql } from "drizzle-orm";
import { createRateLimits, type RateLimits } from "@/lib/rate-limit";
import { freshDatabase, urlOfFreshDatabase } from "../support/fresh-database";

/**
 * Where the rate-limit counters live: on PostgreSQL in the database, shared by every instance on
 * it; on SQLite in each process's memory, as before. Runs in both vitest projects.
 */

const opened: Db[] = [];
afterEach(async () => {
  resetRateLimits();
  delete (globalThis as { toolshedDb?: Db }).toolshedDb;
  for (const db of opened.splice(0)) await closeDb(db).catch(() => undefined);
});

async function refusedAfter(limits: RateLimits, key: string, times: number): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let index = 0; index < times; index++) results.push((await limits.consume("write", key)).ok);
  return results;
}

describe("rate limits on PostgreSQL", () => {
  it("are shared by instances on one database: together they allow the limit once", async ({ skip }) => {
    const db = await freshDatabase();
    if (!isPostgres(db)) skip("PostgreSQL only");
    // Two instances: each its own pool on the same database, its own limiters.
    const [first, second] = [openPostgres(urlOfFreshDatabase(db)), openPostgres(urlOfFreshDatabase(db))];
    opened.push(first, second);
    const env = { TOOLSHED_RATE_LIMIT_WRITE: "3" };
    const a = createRateLimits(env, postgresLimiters(first));
    const b = createRateLimits(env, postgresLimiters(second));
    expect(await refusedAfter(a, "user:1", 2)).toEqual([true, true]);
    expect(await refusedAfter(b, "user:1", 2)).toEqual([true, false]);
    expect(await a.consume("write", "user:1")).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) });
    // Callers and classes stay apart in the one table.
    expect(await b.consume("write", "user:2")).toEqual({ ok: true });
    expect(await b.consume("read", "user:1")).toEqual({ ok: true });
  });

  it("are what the app's limiter counts with, in the rate_limits table", async ({ skip }) => {
    const db = await freshDatabase();
    if (!isPostgres(db)) skip("PostgreSQL only");
    (globalThis as { toolshedDb?: Db }).toolshedDb = db;
    process.env.TOOLSHED_RATE_LIMIT_MODEL = "2";
    try {
      expect(await consumeRateLimit("model", "user:app")).toEqual({ ok: true });
      // Another instance's limiters see the app's count.
      const other = openPostgres(urlOfFreshDatabase(db));
      opened.push(other);
      const b = createRateLimits({ TOOLSHED_RATE_LIMIT_MODEL: "2" }, postgresLimiters(other));
      expect(await b.consume("model", "user:app")).toEqual({ ok: true });
      expect(await consumeRateLimit("model", "user:app")).toMatchObject({ ok: false });
      const rows = (await executeOnPostgres(db, sql`SELECT key, points FROM rate_limits`)) as { rows: { key: string; points: number }[] };
      expect(rows.rows).toEqual([{ key: "rate-limit:model:user:app", points: 3 }]);
    } finally {
      delete process.env.TOOLSHED_RATE_LIMIT_MODEL;
    }
  });

  it("fall back to counting in the instance's memory while the database cannot be reached", async ({ skip }) => {
    const db = await freshDatabase();
    if (!isPostgres(db)) skip("PostgreSQL only");
    const instance = openPostgres(urlOfFreshDatabase(db));
    const limits = createRateLimits({ TOOLSHED_RATE_LIMIT_WRITE: "2" }, postgresLimiters(instance));
    await closeDb(instance);
    expect(await refusedAfter(limits, "user:1", 3)).toEqual([true, true, false]);
  });
});

describe("rate limits on SQLite", () => {
  it("count in the process's memory, as before: no table, no database needed", async ({ skip }) => {
    if (process.env.TOOLSHED_DATABASE_URL) skip("SQLite only");
    // No database is open at all: the limiter never asks for one.
    process.env.TOOLSHED_RATE_LIMIT_WRITE = "1";
    try {
      expect(await consumeRateLimit("write", "user:1")).toEqual({ ok: true });
      expect(await consumeRateLimit("write", "user:1")).toMatchObject({ ok: false });
      expect((globalThis as { toolshedDb?: Db }).toolshedDb).toBeUndefined();
    } finally {
      delete process.env.TOOLSHED_RATE_LIMIT_WRITE;
    }
  });
});
