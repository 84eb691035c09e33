import "server-only";
import { writeTransaction, type Db } from "@/db/client";
import { heldTools } from "@/db/queries/conversations";
import { type NewDecision, recordDecision } from "@/db/queries/decisions";
import { requireCatalog } from "@/db/queries/guards";
import { listToolServers } from "@/db/queries/tools";
import { addUsage, usageSince } from "@/db/queries/usage-rollups";
import type { CallDecisionResult } from "@/lib/gateway/call-check";
import { log } from "@/lib/observability/log";
import { McpSourceError } from "@/lib/sources/mcp";
import { learnFromCall } from "./learning";
import { HOUR_MS, hourOf, incrementsOf, UsageBuffer, type UsageKey } from "@/lib/usage/usage-buffer";
import { type UsageSource, usageEventsOf } from "@/lib/usage/usage-events";
import { figuresOf, USAGE_WINDOWS, usageCallouts, type UsageStats, type UsageWindow } from "@/lib/usage/usage-stats";

/** How long counted usage waits in memory before it is written: its writes stay off the routes agents call every turn. */
const FLUSH_DELAY_MS = 1_000;

interface PendingUsage {
  buffer: UsageBuffer;
  timer?: ReturnType<typeof setTimeout>;
}

// Per database, on globalThis: the routes are bundled apart, each with its own copy of this module.
const shared = globalThis as unknown as { toolshedPendingUsage?: Map<Db, PendingUsage> };
shared.toolshedPendingUsage ??= new Map();
const pendingUsage = shared.toolshedPendingUsage;

/**
 * Counts a decision's usage: in memory at once, in the rollups within a second (one bulk insert,
 * adding to the rows it meets, for every decision of that second), before any read of the figures,
 * and at shutdown. So recording a turn writes nothing more than its decision; what a crash can
 * lose is that last second's counts.
 * `held`: the tool history the decision's conversation had before it (usage-events.ts).
 */
export function countUsage(db: Db, key: UsageKey, source: UsageSource, held: ReadonlySet<string>, at = Date.now()): void {
  const pending = pendingUsage.get(db) ?? { buffer: new UsageBuffer() };
  pendingUsage.set(db, pending);
  pending.buffer.add(incrementsOf(key, usageEventsOf(source, held), at));
  pending.timer ??= setTimeout(() => void flushUsage(db).catch(() => undefined), FLUSH_DELAY_MS).unref();
}

/**
 * Writes the usage counted on `db` so far. When the write fails (the database busy past its
 * timeout, or gone) the counts stay in memory for the next write, which the next count schedules.
 */
export async function flushUsage(db: Db): Promise<void> {
  const pending = pendingUsage.get(db);
  if (!pending) return;
  clearTimeout(pending.timer);
  pending.timer = undefined;
  const increments = pending.buffer.take();
  if (increments.length === 0) return;
  try {
    await writeTransaction(db, (tx) => addUsage(tx, increments));
  } catch (error) {
    pending.buffer.add(increments);
    log.warn({ err: error }, "Writing the usage rollups failed; they are kept for the next write:");
    throw error;
  }
}

/** Writes what every database's buffer holds: at shutdown. */
export async function flushAllUsage(): Promise<void> {
  await Promise.allSettled([...pendingUsage.keys()].map((db) => flushUsage(db)));
}

/**
 * Records a decision (db/queries/decisions.ts), `chosen` joining its conversation's history, and
 * counts its usage; `held` as countUsage's. A call answered in a conversation is learned from.
 */
export async function recordCountedDecision(db: Db, decision: NewDecision, held: ReadonlySet<string>, chosen?: readonly string[]) {
  const recorded = await recordDecision(db, decision, chosen);
  countUsage(db, decision, decision, held, Date.parse(recorded.createdAt));
  if (decision.kind === "call" && (decision.result as CallDecisionResult).outcome === "ok" && decision.conversationId) {
    learnInBackground(db, decision.catalogId, decision.conversationId, (decision.input as { tool: string }).tool);
  }
  return recorded;
}

/** Learning from a call happens after it has answered: its failure is logged, never the caller's. */
export function learnInBackground(db: Db, catalogId: string, conversationId: string, tool: string): void {
  learnFromCall(db, catalogId, conversationId, tool).catch((error) => log.warn({ err: error }, `Learning from a call of "${tool}" failed:`));
}

/** A catalog's usage over a window, from the hourly rollups (db/queries/usage-rollups.ts), with the Usage page's call-outs. */
export async function readUsageStats(db: Db, catalogId: string, window: UsageWindow, now = Date.now()): Promise<UsageStats> {
  await requireCatalog(db, catalogId);
  // What this instance counted in the last second is in the figures (other instances' joins within a second).
  await flushUsage(db).catch(() => undefined);
  const sinceOf = (hours: number) => hourOf(now - hours * HOUR_MS);
  const since = sinceOf(USAGE_WINDOWS[window]);
  const [toolRows, agentRows, modelRows, catalogTools] = await Promise.all([
    usageSince(db, catalogId, since, "tool"),
    usageSince(db, catalogId, since, "agent"),
    usageSince(db, catalogId, since, "model"),
    listToolServers(db, catalogId),
  ]);
  const serverOf = new Map(catalogTools.map((tool) => [tool.name, tool.server]));
  const tools = figuresOf(toolRows);
  const last30Days = window === "30d" ? tools : figuresOf(await usageSince(db, catalogId, sinceOf(USAGE_WINDOWS["30d"]), "tool"));
  return {
    window,
    since: since.toISOString(),
    tools,
    servers: figuresOf(toolRows, (tool) => serverOf.get(tool) ?? null),
    agents: figuresOf(agentRows),
    models: figuresOf(modelRows),
    ...usageCallouts(catalogTools, last30Days, tools),
  };
}

/** Why a live tool call failed, as the usage figures count it: the caller gave up, its server did not answer in time, or anything else. */
export function callFailure(error: unknown, aborted: boolean): NonNullable<CallDecisionResult["failure"]> {
  if (aborted) return "cancelled";
  return error instanceof McpSourceError && error.failure === "timeout" ? "timeout" : "upstream";
}

/**
 * Counts a live tool call that records no decision (the playground's MCP tools) in the usage
 * rollups, as a gateway call's decision is counted.
 */
export async function countLiveCall(
  db: Db,
  key: UsageKey & { conversationId: string | null },
  tool: string,
  result: Pick<CallDecisionResult, "outcome" | "failure">,
  latencyMs: number,
) {
  const held = key.conversationId ? await heldTools(db, key.conversationId, [tool]) : new Set<string>();
  countUsage(db, key, { kind: "call", input: { tool }, result, latencyMs }, held);
  if (result.outcome === "ok" && key.conversationId) learnInBackground(db, key.catalogId, key.conversationId, tool);
}
