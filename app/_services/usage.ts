import "server-only";
import type { Db } from "@/db/client";
import { requireCatalog } from "@/db/queries/guards";
import { listToolServers } from "@/db/queries/tools";
import { hourOf, usageSince } from "@/db/queries/usage-rollups";
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
