import { histogramPercentile } from "./latency-histogram";
import { USAGE_COUNTERS, type UsageCounter } from "./usage-events";

/** The windows the usage figures cover, in hours. */
export const USAGE_WINDOWS = { "1h": 1, "24h": 24, "7d": 7 * 24, "30d": 30 * 24 } as const;
export type UsageWindow = keyof typeof USAGE_WINDOWS;

/** ToolSearch had to find a tool this often in the window: preselection keeps missing it. */
export const OFTEN_FOUND_MIN = 3;

/** What the rollups hold for one tool, agent or model and latency bucket, summed over the window's hours. */
export type UsageRow = { key: string; latencyBucket: number } & Record<UsageCounter, number>;

/** The figures of one tool, server, agent or model over a window. */
export interface UsageFigures {
  name: string;
  calls: number;
  /** Refused, timed out and failed calls (errorsByKind); calls the client gave up are counted apart. */
  errors: number;
  errorsByKind: { refused: number; timeout: number; upstream: number };
  cancelled: number;
  /** Latency percentiles of the calls the server answered, read from the rollups' histogram (about 9 % off at most). */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** Times preselection offered it. */
  offered: number;
  /** Calls made in a conversation that already held it (offered by preselection or found by ToolSearch before). */
  calledWhenOffered: number;
  /** Times ToolSearch found it for a conversation that did not hold it: a preselection miss. */
  foundBySearch: number;
}

/** The figures per name: rows grouped by `nameOf` (rows it maps to null are left out), busiest first. */
export function figuresOf(rows: readonly UsageRow[], nameOf: (key: string) => string | null = (key) => key): UsageFigures[] {
  const groups = new Map<string, { sums: Record<UsageCounter, number>; latencies: Map<number, number> }>();
  for (const row of rows) {
    const name = nameOf(row.key);
    if (name === null) continue;
    let group = groups.get(name);
    if (!group) {
      group = { sums: Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, 0])) as Record<UsageCounter, number>, latencies: new Map() };
      groups.set(name, group);
    }
    for (const counter of USAGE_COUNTERS) group.sums[counter] += row[counter];
    if (row.latencyBucket >= 0) group.latencies.set(row.latencyBucket, (group.latencies.get(row.latencyBucket) ?? 0) + row.calls);
  }
  return [...groups]
    .map(([name, { sums, latencies }]) => ({
      name,
      calls: sums.calls,
      errors: sums.refused + sums.timeouts + sums.upstreamErrors,
      errorsByKind: { refused: sums.refused, timeout: sums.timeouts, upstream: sums.upstreamErrors },
      cancelled: sums.cancelled,
      p50Ms: histogramPercentile(latencies, 0.5),
      p95Ms: histogramPercentile(latencies, 0.95),
      p99Ms: histogramPercentile(latencies, 0.99),
      offered: sums.offered,
      calledWhenOffered: sums.calledWhenOffered,
      foundBySearch: sums.foundBySearch,
    }))
    .sort((a, b) => b.calls - a.calls || b.offered - a.offered || a.name.localeCompare(b.name));
}

/** At most this many never-called tools are named: a catalog may hold 50,000. */
const NEVER_CALLED_NAMED = 500;

/** What GET …/usage-stats answers and the Usage page shows. */
export interface UsageStats {
  window: UsageWindow;
  /** The start of the first hour counted: the hourly rollups that overlap the window. */
  since: string;
  tools: UsageFigures[];
  servers: UsageFigures[];
  agents: UsageFigures[];
  models: UsageFigures[];
  neverCalled: string[];
  neverCalledTotal: number;
  oftenFound: { name: string; foundBySearch: number }[];
}

/** A catalog's tools as the call-outs need them. */
export interface CatalogToolRef {
  name: string;
  server: string | null;
  enabled: boolean;
}

/** What the Usage page calls out: enabled tools nobody called in 30 days (the first 500 named), and tools ToolSearch keeps having to find. */
export function usageCallouts(tools: readonly CatalogToolRef[], last30Days: readonly UsageFigures[], window: readonly UsageFigures[]) {
  const called = new Set(last30Days.filter((tool) => tool.calls > 0).map((tool) => tool.name));
  // Only MCP tools' calls pass through Toolshed (its gateway, the playground): any other tool would always be listed.
  const neverCalled = tools.filter((tool) => tool.enabled && tool.server !== null && !called.has(tool.name)).map((tool) => tool.name);
  return {
    neverCalled: neverCalled.slice(0, NEVER_CALLED_NAMED),
    neverCalledTotal: neverCalled.length,
    oftenFound: window
      .filter((tool) => tool.foundBySearch >= OFTEN_FOUND_MIN)
      .sort((a, b) => b.foundBySearch - a.foundBySearch || a.name.localeCompare(b.name))
      .map(({ name, foundBySearch }) => ({ name, foundBySearch })),
  };
}
