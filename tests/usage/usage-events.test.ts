import { describe, expect, it } from "vitest";
import { latencyBucket } from "@/lib/usage/latency-histogram";
import { usageEventsOf } from "@/lib/usage/usage-events";

const call = (result: Record<string, unknown>, latencyMs = 120) => ({
  kind: "call" as const,
  input: { tool: "search_web", via: "direct" },
  result: { needsApproval: false, approval: null, reason: null, ...result },
  latencyMs,
});

describe("what a decision adds to the usage rollups", () => {
  it("counts each tool preselection offered once", () => {
    const events = usageEventsOf({
      kind: "preselect",
      input: {},
      result: {
        selected: [
          { name: "a", score: 1 },
          { name: "b", score: 0.5 },
          { name: "a", score: 0.1 },
        ],
      },
      latencyMs: 3,
    });
    expect(events).toEqual([
      { tool: "a", latencyBucket: -1, counts: { offered: 1 } },
      { tool: "b", latencyBucket: -1, counts: { offered: 1 } },
    ]);
  });

  it("counts a ToolSearch find only when the conversation did not hold the tool", () => {
    expect(usageEventsOf({ kind: "tool-search", input: {}, result: { requested: [], tools: ["x", "y"] }, latencyMs: 2 }, new Set(["y"]))).toEqual([
      { tool: "x", latencyBucket: -1, counts: { foundBySearch: 1 } },
      { tool: "y", latencyBucket: -1, counts: {} },
    ]);
  });

  it("sorts calls by outcome: answered ones keep their latency, refused and cancelled ones none", () => {
    const bucket = latencyBucket(120);
    expect(usageEventsOf(call({ outcome: "ok" }))).toEqual([{ tool: "search_web", latencyBucket: bucket, counts: { calls: 1 } }]);
    // The model had been given the tool: a call of an offered tool.
    expect(usageEventsOf(call({ outcome: "ok" }), new Set(["search_web"]))[0].counts).toEqual({ calls: 1, calledWhenOffered: 1 });
    expect(usageEventsOf(call({ outcome: "refused", reason: "denied" }, 0))[0]).toMatchObject({ latencyBucket: -1, counts: { calls: 1, refused: 1 } });
    expect(usageEventsOf(call({ outcome: "error", failure: "timeout" }))[0]).toMatchObject({ latencyBucket: bucket, counts: { calls: 1, timeouts: 1 } });
    expect(usageEventsOf(call({ outcome: "error", failure: "cancelled" }))[0]).toMatchObject({ latencyBucket: -1, counts: { calls: 1, cancelled: 1 } });
    // Call decisions recorded before the failure kind was: an upstream error.
    expect(usageEventsOf(call({ outcome: "error" }))[0]).toMatchObject({ latencyBucket: bucket, counts: { calls: 1, upstreamErrors: 1 } });
  });
});
