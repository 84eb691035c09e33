import "server-only";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * What `GET /api/metrics` shows, in Prometheus text format: counters and histograms in this
 * process's memory, recorded on the request path without any I/O (a label lookup and an add). A
 * registry of its own, not prom-client's global one, kept on globalThis: Next bundles
 * instrumentation.ts and the route handlers apart, and both must record into the same one.
 * Labels stay bounded: route patterns, never raw paths; catalog, tool and server names, which
 * the catalogs bound; outcomes and selector ids from fixed sets.
 */

/** What became of a call of a tool: refused before its server was asked, or the server's answer. */
export type ToolCallOutcome = "ok" | "refused" | "timeout" | "upstream_error" | "cancelled";

// Seconds: from a cached tool list (sub-millisecond) to a model selector or a slow MCP tool (a minute).
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "toolshed_http_requests_total",
      help: "API requests answered, by method, route pattern and status.",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "toolshed_http_request_duration_seconds",
      help: "Time to answer an API request (until its headers; a stream's body may go on), by method, route pattern and status.",
      labelNames: ["method", "route", "status"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    toolCalls: new Counter({
      name: "toolshed_tool_calls_total",
      help: "Calls of live tools (MCP gateway, playground), by catalog, tool and outcome.",
      labelNames: ["catalog", "tool", "outcome"] as const,
      registers,
    }),
    toolCallDuration: new Histogram({
      name: "toolshed_tool_call_duration_seconds",
      help: "Time an MCP server took to answer a tool call (refused calls reach none), by catalog, tool and outcome.",
      labelNames: ["catalog", "tool", "outcome"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    selectorDuration: new Histogram({
      name: "toolshed_selector_duration_seconds",
      help: "Time a selector took to rank tools (preselection, ToolSearch), by catalog, selector and use.",
      labelNames: ["catalog", "selector", "use"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    mcpServerUp: new Gauge({
      name: "toolshed_mcp_server_up",
      help: "1 while this instance reaches the MCP server (its last sync or call succeeded), 0 while it does not.",
      labelNames: ["catalog", "server"] as const,
      registers,
    }),
    importJobs: new Counter({
      name: "toolshed_import_jobs_total",
      help: "Catalog imports finished, by catalog and outcome (done, failed).",
      labelNames: ["catalog", "outcome"] as const,
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "toolshed_rate_limit_refusals_total",
      help: "Requests refused with 429 by a rate limit, by its class.",
      labelNames: ["class"] as const,
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof createMetrics> & { children: Map<string, { inc(): void; observe(seconds: number): void }> };
const shared = globalThis as unknown as { toolshedMetrics?: Metrics };

function metrics(): Metrics {
  shared.toolshedMetrics ??= { ...createMetrics(), children: new Map() };
  return shared.toolshedMetrics;
}

/**
 * The counter and histogram children of one HTTP label set, made once: given the labels on every
 * call, prom-client validates and hashes them each time, on every request of the hot routes.
 */
function httpChild(method: string, route: string, status: number) {
  const { httpRequests, httpDuration, children } = metrics();
  const key = `${method} ${route} ${status}`;
  let child = children.get(key);
  if (!child) {
    const labels = { method, route, status: String(status) };
    const requests = httpRequests.labels(labels);
    const duration = httpDuration.labels(labels);
    child = { inc: () => requests.inc(), observe: (seconds) => duration.observe(seconds) };
    children.set(key, child);
  }
  return child;
}

export function recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const child = httpChild(method, route, status);
  child.inc();
  child.observe(seconds);
}

/** A call of a tool; `seconds` is how long its server took, null for a call that reached none. */
export function recordToolCall(catalog: string, tool: string, outcome: ToolCallOutcome, seconds: number | null): void {
  const labels = { catalog, tool, outcome };
  metrics().toolCalls.inc(labels);
  if (seconds !== null) metrics().toolCallDuration.observe(labels, seconds);
}

export function recordSelection(catalog: string, selector: string, use: "preselect" | "tool_search", seconds: number): void {
  metrics().selectorDuration.observe({ catalog, selector, use }, seconds);
}

export function recordMcpServerUp(catalog: string, server: string, up: boolean): void {
  metrics().mcpServerUp.set({ catalog, server }, up ? 1 : 0);
}

/** Drops a server's gauge: it was deleted, with its catalog or alone. */
export function forgetMcpServer(catalog: string, server: string): void {
  metrics().mcpServerUp.remove({ catalog, server });
}

export function recordImportJob(catalog: string, outcome: "done" | "failed"): void {
  metrics().importJobs.inc({ catalog, outcome });
}

export function recordRateLimitRefusal(kind: string): void {
  metrics().rateLimitRefusals.inc({ class: kind });
}

/** The registry as Prometheus text, and its content type. */
export async function metricsExposition(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
