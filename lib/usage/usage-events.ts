import type { CallDecisionInput, CallDecisionResult } from "../gateway/call-check";
import type { DecisionKind } from "../selection/types";
import { latencyBucket } from "./latency-histogram";

/** What the hourly usage rollups count, per tool, agent, model and latency bucket. */
export const USAGE_COUNTERS = ["calls", "refused", "timeouts", "upstreamErrors", "cancelled", "offered", "calledWhenOffered", "foundBySearch"] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

/** What one decision adds to one tool's rollup row. */
export interface UsageEvent {
  tool: string;
  /** The latency's bucket (latency-histogram.ts) for a call its server answered; -1 for everything else. */
  latencyBucket: number;
  counts: Partial<Record<UsageCounter, number>>;
}

/** The part of a decision its usage depends on. */
export interface UsageSource {
  kind: DecisionKind;
  input: unknown;
  result: unknown;
  latencyMs: number;
}

/**
 * A gateway call's counters: errors by kind; latencies only of calls that reached the server and
 * were not given up; `calledWhenOffered` when the model had been given the tool (`held`).
 */
function callEvent(input: CallDecisionInput, result: CallDecisionResult, latencyMs: number, held: boolean): UsageEvent {
  const event = (counter: UsageCounter | null, bucket: number): UsageEvent => ({
    tool: input.tool,
    latencyBucket: bucket,
    counts: { calls: 1, ...(counter ? { [counter]: 1 } : {}), ...(held ? { calledWhenOffered: 1 } : {}) },
  });
  if (result.outcome === "refused") return event("refused", -1);
  if (result.outcome === "ok") return event(null, latencyBucket(latencyMs));
  if (result.failure === "cancelled") return event("cancelled", -1);
  return event(result.failure === "timeout" ? "timeouts" : "upstreamErrors", latencyBucket(latencyMs));
}

const namesOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((name): name is string => typeof name === "string") : []);

/**
 * What a decision adds to the usage rollups: one event per tool it offered, found or called.
 * `held` is the tool history its conversation had before it (what preselection offered and
 * ToolSearch found): a call of a held tool was a call of a tool the model had been given, a
 * ToolSearch find of a tool not held was a preselection miss.
 */
export function usageEventsOf(decision: UsageSource, held: ReadonlySet<string> = new Set()): UsageEvent[] {
  const result = (decision.result ?? {}) as Record<string, unknown>;
  if (decision.kind === "call") {
    const input = decision.input as CallDecisionInput;
    return [callEvent(input, decision.result as CallDecisionResult, decision.latencyMs, held.has(input.tool))];
  }
  const names =
    decision.kind === "preselect"
      ? namesOf(Array.isArray(result.selected) ? result.selected.map((tool: { name?: unknown }) => tool?.name) : [])
      : namesOf(result.tools);
  return [...new Set(names)].map((tool) =>
    decision.kind === "preselect"
      ? { tool, latencyBucket: -1, counts: { offered: 1 } }
      : { tool, latencyBucket: -1, counts: held.has(tool) ? {} : { foundBySearch: 1 } },
  );
}
