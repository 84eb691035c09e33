import "server-only";
import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { USAGE_COUNTERS, type UsageCounter, type UsageEvent } from "@/lib/usage/usage-events";
import type { UsageRow } from "@/lib/usage/usage-stats";
import type { Db } from "../client";
import { conversationTools, usageRollups } from "../tables";
import type { Tx } from "./audit";

const HOUR_MS = 60 * 60 * 1000;

/** The start of the hour `at` falls in: the rollups' bucket. */
export const hourOf = (at: number) => new Date(Math.floor(at / HOUR_MS) * HOUR_MS);

/** Where the decision happened: the rollup row's key besides the tool and latency bucket. */
export interface UsageKey {
  catalogId: string;
  conversationId?: string | null;
  agent: string;
  model: string;
}

/**
 * Adds one decision's usage to its hour's rollup rows: one upsert, in the decision's own
 * transaction. Whether the conversation already held a tool is answered inside the statement (an
 * index lookup), so recording a decision reads nothing more.
 */
export async function addUsage(tx: Tx, key: UsageKey, events: UsageEvent[], at = Date.now()): Promise<void> {
  if (events.length === 0) return;
  const held = (tool: string): SQL<number> =>
    key.conversationId
      ? sql<number>`(SELECT count(*) FROM ${conversationTools} WHERE ${conversationTools.conversationId} = ${key.conversationId} AND ${conversationTools.name} = ${tool})`
      : sql<number>`0`;
  const hour = hourOf(at);
  // In one order whatever the decision's: two PostgreSQL transactions that lock the same rows lock them in turn, never crosswise.
  const ordered = [...events].sort((a, b) => a.tool.localeCompare(b.tool) || a.latencyBucket - b.latencyBucket);
  const rows = ordered.map((event) => {
    const counts: Partial<Record<UsageCounter, number | SQL<number>>> = { ...event.counts };
    if (event.whenHeld) counts[event.whenHeld] = held(event.tool);
    if (event.whenNotHeld) counts[event.whenNotHeld] = sql<number>`1 - ${held(event.tool)}`;
    return { catalogId: key.catalogId, hour, tool: event.tool, agent: key.agent, model: key.model, latencyBucket: event.latencyBucket, ...counts };
  });
  const { catalogId, hour: hourColumn, tool, agent, model, latencyBucket } = usageRollups;
  await tx
    .insert(usageRollups)
    .values(rows)
    .onConflictDoUpdate({
      target: [catalogId, hourColumn, tool, agent, model, latencyBucket],
      set: Object.fromEntries(
        USAGE_COUNTERS.map((counter) => [counter, sql`${usageRollups[counter]} + excluded.${sql.identifier(usageRollups[counter].name)}`]),
      ),
    });
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
