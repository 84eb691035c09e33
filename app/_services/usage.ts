import "server-only";
import { writeTransaction, type Db } from "@/db/client";
import { requireCatalog } from "@/db/queries/guards";
import { listToolServers } from "@/db/queries/tools";
import { addUsage, hourOf, type UsageKey, usageSince } from "@/db/queries/usage-rollups";
import type { CallDecisionResult } from "@/lib/gateway/call-check";
import { McpSourceError } from "@/lib/sources/mcp";
import { usageEventsOf } from "@/lib/usage/usage-events";
import { figuresOf, USAGE_WINDOWS, usageCallouts, type UsageStats, type UsageWindow } from "@/lib/usage/usage-stats";

const HOUR_MS = 60 * 60 * 1000;

/** A catalog's usage over a window, from the hourly rollups (db/queries/usage-rollups.ts), with the Usage page's call-outs. */
export async function readUsageStats(db: Db, catalogId: string, window: UsageWindow, now = Date.now()): Promise<UsageStats> {
  await requireCatalog(db, catalogId);
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
export async function countLiveCall(db: Db, key: UsageKey, tool: string, result: Pick<CallDecisionResult, "outcome" | "failure">, latencyMs: number) {
  await writeTransaction(db, (tx) => addUsage(tx, key, usageEventsOf({ kind: "call", input: { tool }, result, latencyMs })));
}
