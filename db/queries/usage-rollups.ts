import "server-only";
import { and, eq, getTableName, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { UsageIncrement } from "@/lib/usage/usage-buffer";
import { USAGE_COUNTERS, type UsageCounter } from "@/lib/usage/usage-events";
import type { UsageRow } from "@/lib/usage/usage-stats";
import { chunkedInsert } from "../chunks";
import type { Db } from "../client";
import { catalogs, usageRollups } from "../tables";
import type { Tx } from "./audit";

const KEY = ["catalogId", "hour", "tool", "agent", "model", "latencyBucket"] as const;
const columnName = (field: keyof typeof usageRollups.$inferSelect) => usageRollups[field].name;
const ADD_COUNTERS = { key: KEY.map(columnName), add: USAGE_COUNTERS.map(columnName) };

/**
 * Adds increments to their hourly rollup rows, creating the rows that are missing; those of a
 * catalog deleted since they were counted are dropped. In bulk statements (db/chunks.ts): a
 * flush writes hundreds of rows at once, which the query builder would build parameter by
 * parameter. Sorted first: two PostgreSQL transactions that lock the same rows lock them in
 * turn, never crosswise.
 */
export async function addUsage(tx: Tx, increments: UsageIncrement[]): Promise<void> {
  const catalogIds = [...new Set(increments.map((increment) => increment.catalogId))];
  if (catalogIds.length === 0) return;
  const live = new Set((await tx.select({ id: catalogs.id }).from(catalogs).where(inArray(catalogs.id, catalogIds))).map((row) => row.id));
  const rows = increments
    .filter((increment) => live.has(increment.catalogId))
    .sort(
      (a, b) =>
        a.catalogId.localeCompare(b.catalogId) ||
        a.hour.getTime() - b.hour.getTime() ||
        a.tool.localeCompare(b.tool) ||
        a.agent.localeCompare(b.agent) ||
        a.model.localeCompare(b.model) ||
        a.latencyBucket - b.latencyBucket,
    )
    .map((increment) => [...KEY.map((field) => increment[field]), ...USAGE_COUNTERS.map((counter) => increment.counts[counter])]);
  await chunkedInsert(tx, getTableName(usageRollups), [...ADD_COUNTERS.key, ...ADD_COUNTERS.add], rows, ADD_COUNTERS);
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
