import "server-only";
import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { UsageIncrement } from "@/lib/usage/usage-buffer";
import { USAGE_COUNTERS, type UsageCounter } from "@/lib/usage/usage-events";
import type { UsageRow } from "@/lib/usage/usage-stats";
import type { Db } from "../client";
import { catalogs, usageRollups } from "../tables";
import type { Tx } from "./audit";

/** Rows per statement: 14 columns each, far below SQLite's and PostgreSQL's limits on bound variables. */
const UPSERT_CHUNK = 500;

/**
 * Adds increments to their hourly rollup rows, creating the rows that are missing; those of a
 * catalog deleted since they were counted are dropped. Sorted first: two PostgreSQL transactions
 * that lock the same rows lock them in turn, never crosswise.
 */
export async function addUsage(tx: Tx, increments: UsageIncrement[]): Promise<void> {
  const catalogIds = [...new Set(increments.map((increment) => increment.catalogId))];
  const live = new Set((await tx.select({ id: catalogs.id }).from(catalogs).where(inArray(catalogs.id, catalogIds))).map((row) => row.id));
  const ordered = increments
    .filter((increment) => live.has(increment.catalogId))
    .sort(
      (a, b) =>
        a.catalogId.localeCompare(b.catalogId) ||
        a.hour.getTime() - b.hour.getTime() ||
        a.tool.localeCompare(b.tool) ||
        a.agent.localeCompare(b.agent) ||
        a.model.localeCompare(b.model) ||
        a.latencyBucket - b.latencyBucket,
    );
  const { catalogId, hour, tool, agent, model, latencyBucket } = usageRollups;
  const set = Object.fromEntries(
    USAGE_COUNTERS.map((counter) => [counter, sql`${usageRollups[counter]} + excluded.${sql.identifier(usageRollups[counter].name)}`]),
  );
  for (let start = 0; start < ordered.length; start += UPSERT_CHUNK) {
    const rows = ordered.slice(start, start + UPSERT_CHUNK).map(({ counts, ...key }) => ({ ...key, ...counts }));
    await tx
      .insert(usageRollups)
      .values(rows)
      .onConflictDoUpdate({ target: [catalogId, hour, tool, agent, model, latencyBucket], set });
  }
}

/** A catalog's usage since `since`, summed per tool, agent or model and latency bucket. */
export async function usageSince(db: Db, catalogId: string, since: Date, by: "tool" | "agent" | "model"): Promise<UsageRow[]> {
  const column = usageRollups[by];
  const sums = Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, sql<number>`sum(${usageRollups[counter]})`.mapWith(Number)])) as Record<
    UsageCounter,
    SQL.Aliased<number> | SQL<number>
  >;
  return (await db
    .select({ key: column, latencyBucket: usageRollups.latencyBucket, ...sums })
    .from(usageRollups)
    .where(and(eq(usageRollups.catalogId, catalogId), gte(usageRollups.hour, since)))
    .groupBy(column, usageRollups.latencyBucket)) as UsageRow[];
}

/** Forgets the hours before `before` in every catalog; returns how many rows went. */
export async function deleteUsageBefore(db: Db, before: Date): Promise<number> {
  return (await db.delete(usageRollups).where(lt(usageRollups.hour, before)).returning({ hour: usageRollups.hour })).length;
}
