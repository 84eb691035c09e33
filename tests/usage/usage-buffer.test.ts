import { describe, expect, it } from "vitest";
import { hourOf, incrementsOf, UsageBuffer } from "@/lib/usage/usage-buffer";

const HOUR = 60 * 60 * 1000;
const at = Date.UTC(2026, 11, 4, 18, 30);
const key = { catalogId: "team", agent: "build", model: "gpt-5" };

describe("usage counted in memory", () => {
  it("makes one increment per event, every counter present, in the hour of the decision", () => {
    const [increment] = incrementsOf(key, [{ tool: "search_web", latencyBucket: 12, counts: { calls: 1, timeouts: 1 } }], at);
    expect(increment).toEqual({
      ...key,
      hour: new Date(Date.UTC(2026, 11, 4, 18)),
      tool: "search_web",
      latencyBucket: 12,
      counts: { calls: 1, refused: 0, timeouts: 1, upstreamErrors: 0, cancelled: 0, offered: 0, calledWhenOffered: 0, foundBySearch: 0 },
    });
    expect(hourOf(at + HOUR).getTime() - hourOf(at).getTime()).toBe(HOUR);
  });

  it("adds increments of one rollup row up and keeps rows of another hour, tool, agent or bucket apart", () => {
    const buffer = new UsageBuffer();
    const offered = (tool: string, when = at, agent = "build") => incrementsOf({ ...key, agent }, [{ tool, latencyBucket: -1, counts: { offered: 1 } }], when);
    buffer.add(offered("a"));
    buffer.add(offered("a", at + 60_000));
    buffer.add(offered("a", at + HOUR));
    buffer.add(offered("b"));
    buffer.add(offered("a", at, "plan"));
    expect(buffer.size).toBe(4);
    const rows = buffer.take();
    expect(rows.find((row) => row.tool === "a" && row.agent === "build" && row.hour.getTime() === hourOf(at).getTime())?.counts.offered).toBe(2);
    expect(rows.map((row) => row.counts.offered).reduce((sum, count) => sum + count)).toBe(5);
    expect(buffer.size).toBe(0);
    expect(buffer.take()).toEqual([]);
  });

  it("keeps what it was given apart from what it holds: adding back taken rows changes nothing given", () => {
    const buffer = new UsageBuffer();
    const given = incrementsOf(key, [{ tool: "a", latencyBucket: -1, counts: { offered: 1 } }], at);
    buffer.add(given);
    buffer.add(given);
    expect(given[0].counts.offered).toBe(1);
    const taken = buffer.take();
    buffer.add(taken);
    buffer.add(taken);
    expect(taken[0].counts.offered).toBe(2);
    expect(buffer.take()[0].counts.offered).toBe(4);
  });
});
