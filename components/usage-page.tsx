"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { parseAsStringLiteral, useQueryState } from "nuqs";
import { LearningPanel } from "./learning-panel";
import { OFTEN_FOUND_MIN, USAGE_WINDOWS, type UsageFigures, type UsageStats, type UsageWindow } from "@/lib/usage/usage-stats";
import { getJson } from "./api-client";
import { type Bar, BarChart } from "./metric-charts";
import { LocalTime } from "./local-time";
import { LoadFailure } from "./page-problems";
import { formatMs } from "./usage-sort";
import { UsageTable } from "./usage-table";

const WINDOWS = Object.keys(USAGE_WINDOWS) as UsageWindow[];
const WINDOW_LABELS: Record<UsageWindow, string> = { "1h": "1 h", "24h": "24 h", "7d": "7 d", "30d": "30 d" };
/** Bars per chart: the busiest, the rest are in the tables. */
const CHART_BARS = 12;

const decisionsOf = (catalogId: string) => (tool: string) => `/catalogs/${catalogId}/decisions?tool=${encodeURIComponent(tool)}`;

function callBars(rows: readonly UsageFigures[]): Bar[] {
  return rows
    .filter((row) => row.calls > 0)
    .slice(0, CHART_BARS)
    .map((row) => ({ label: row.name, value: row.calls, part: row.errors, text: row.errors > 0 ? `${row.calls} (${row.errors} failed)` : String(row.calls) }));
}

function latencyBars(rows: readonly UsageFigures[]): Bar[] {
  return rows
    .filter((row) => row.p95Ms !== null)
    .sort((a, b) => (b.p95Ms ?? 0) - (a.p95Ms ?? 0))
    .slice(0, CHART_BARS)
    .map((row) => ({ label: row.name, value: row.p95Ms ?? 0, text: formatMs(row.p95Ms) }));
}

/** What needs a look: enabled tools nobody called in 30 days, and tools preselection keeps missing. */
function Callouts({ stats, catalogId }: { stats: UsageStats; catalogId: string }) {
  const toDecisions = decisionsOf(catalogId);
  return (
    <div className="grid-2">
      <section className="panel stack" aria-labelledby="never-called-heading" data-testid="never-called">
        <h3 id="never-called-heading">MCP tools never called in 30 days ({stats.neverCalledTotal})</h3>
        {stats.neverCalledTotal === 0 ? (
          <p className="muted small">Every enabled MCP tool was called at least once. Other tools run in the agent, where Toolshed does not see their calls.</p>
        ) : (
          <p className="small mono">
            {stats.neverCalled.join(", ")}
            {stats.neverCalledTotal > stats.neverCalled.length && ` … and ${stats.neverCalledTotal - stats.neverCalled.length} more`}
          </p>
        )}
      </section>
      <section className="panel stack" aria-labelledby="often-found-heading" data-testid="often-found">
        <h3 id="often-found-heading">ToolSearch keeps having to find</h3>
        {stats.oftenFound.length === 0 ? (
          <p className="muted small">No tool was found by ToolSearch {OFTEN_FOUND_MIN} times or more in this window.</p>
        ) : (
          <>
            <p className="muted small">Preselection did not offer these, and the model searched for them: their summaries may not say what they are for.</p>
            <ul className="small">
              {stats.oftenFound.map((tool) => (
                <li key={tool.name}>
                  <Link href={toDecisions(tool.name)} prefetch={false} className="mono">
                    {tool.name}
                  </Link>{" "}
                  found {tool.foundBySearch} times
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}

function UsageFiguresView({ stats, catalogId }: { stats: UsageStats; catalogId: string }) {
  const calls = callBars(stats.tools);
  const latencies = latencyBars(stats.tools);
  return (
    <>
      <p className="muted small" data-testid="usage-since">
        Counted in whole hours, from <LocalTime iso={stats.since} />.
      </p>
      <Callouts stats={stats} catalogId={catalogId} />
      <div className="grid-2">
        <section className="panel stack" aria-labelledby="calls-chart-heading">
          <h3 id="calls-chart-heading">Calls by tool (failed in red)</h3>
          {calls.length > 0 ? <BarChart title="Calls by tool" bars={calls} testId="calls-chart" /> : <p className="muted small">No calls in this window.</p>}
        </section>
        <section className="panel stack" aria-labelledby="latency-chart-heading">
          <h3 id="latency-chart-heading">Slowest tools (p95)</h3>
          {latencies.length > 0 ? (
            <BarChart title="p95 latency by tool" bars={latencies} testId="latency-chart" />
          ) : (
            <p className="muted small">No answered calls in this window.</p>
          )}
        </section>
      </div>
      <section className="panel stack" aria-labelledby="tools-heading">
        <h3 id="tools-heading">Tools</h3>
        <p className="muted small">A tool's name opens its decisions. Latencies are read from hourly histograms, within about 9 %.</p>
        <UsageTable rows={stats.tools} nameLabel="Tool" testId="usage-tools" linkOf={decisionsOf(catalogId)} />
      </section>
      <section className="panel stack" aria-labelledby="servers-heading">
        <h3 id="servers-heading">MCP servers</h3>
        <UsageTable rows={stats.servers} nameLabel="Server" testId="usage-servers" />
      </section>
      <section className="panel stack" aria-labelledby="agents-heading">
        <h3 id="agents-heading">Agents</h3>
        <UsageTable rows={stats.agents} nameLabel="Agent" testId="usage-agents" />
      </section>
      <section className="panel stack" aria-labelledby="models-heading">
        <h3 id="models-heading">Models</h3>
        <UsageTable rows={stats.models} nameLabel="Model" testId="usage-models" />
      </section>
    </>
  );
}

/** The Usage page: a catalog's calls, errors, latencies, offers and ToolSearch finds over a window kept in the URL. */
export function UsagePage({ catalogId }: { catalogId: string }) {
  const [shown, setShown] = useQueryState("window", parseAsStringLiteral(WINDOWS).withDefault("24h"));
  const stats = useQuery({
    queryKey: ["usage-stats", catalogId, shown],
    queryFn: ({ signal }) => getJson<UsageStats>(`/api/catalogs/${encodeURIComponent(catalogId)}/usage-stats?window=${shown}`, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="stack">
      <fieldset className="bare toolbar" data-testid="usage-window">
        <legend className="visually-hidden">Window</legend>
        {WINDOWS.map((choice) => (
          <button
            key={choice}
            type="button"
            className={choice === shown ? "primary" : "ghost"}
            aria-pressed={choice === shown}
            onClick={() => setShown(choice)}
            data-testid={`usage-window-${choice}`}
          >
            {WINDOW_LABELS[choice]}
          </button>
        ))}
      </fieldset>
      {stats.error && <LoadFailure what="the usage figures" error={stats.error} onRetry={() => stats.refetch()} />}
      {stats.data ? <UsageFiguresView stats={stats.data} catalogId={catalogId} /> : !stats.error && <div className="panel empty">Loading usage…</div>}
      <LearningPanel catalogId={catalogId} />
    </div>
  );
}
