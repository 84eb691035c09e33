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
  /**
   * Counted only when the decision's conversation held the tool before it (its tool history: what
   * preselection offered or ToolSearch found): a call of a tool the model had been given, or a
   * ToolSearch find of a tool it had not (a preselection miss). The database answers it in the write.
   */
  whenHeld?: UsageCounter;
  whenNotHeld?: UsageCounter;
}

/** The part of a decision its usage depends on. */
export interface UsageSource {
  kind: DecisionKind;
  input: unknown;
  result: unknown;
  latencyMs: number;
}

/** A gateway call's counters: errors by kind; latencies only of calls that reached the server and were not given up. */
function callEvent(input: CallDecisionInput, result: CallDecisionResult, latencyMs: number): UsageEvent {
  const event = (counter: UsageCounter | null, bucket: number): UsageEvent => ({
    tool: input.tool,
    latencyBucket: bucket,
    counts: counter ? { calls: 1, [counter]: 1 } : { calls: 1 },
    whenHeld: "calledWhenOffered",
  });
  if (result.outcome === "refused") return event("refused", -1);
  if (result.outcome === "ok") return event(null, latencyBucket(latencyMs));
  if (result.failure === "cancelled") return event("cancelled", -1);
  return event(result.failure === "timeout" ? "timeouts" : "upstreamErrors", latencyBucket(latencyMs));
}

const namesOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((name): name is string => typeof name === "string") : []);

/** What a decision adds to the usage rollups: one event per tool it offered, found or called. */
export function usageEventsOf(decision: UsageSource): UsageEvent[] {
  const result = (decision.result ?? {}) as Record<string, unknown>;
  if (decision.kind === "call") return [callEvent(decision.input as CallDecisionInput, decision.result as CallDecisionResult, decision.latencyMs)];
  const names =
    decision.kind === "preselect"
      ? namesOf(Array.isArray(result.selected) ? result.selected.map((tool: { name?: unknown }) => tool?.name) : [])
      : namesOf(result.tools);
  return [...new Set(names)].map((tool) =>
    decision.kind === "preselect"
      ? { tool, latencyBucket: -1, counts: { offered: 1 } }
      : { tool, latencyBucket: -1, counts: {}, whenNotHeld: "foundBySearch" as const },
  );
}
