import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercentFrom } from "../lib/heap-growth";

describe("heapGrowingPercentFrom", () => {
  it("takes the default when the variable is unset or blank", () => {
    expect(heapGrowingPercentFrom(undefined)).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercentFrom("  ")).toBe(DEFAULT_HEAP_GROWING_PERCENT);
  });

  it("takes a whole number of percent from 10 to 400, and 0 for V8's own choice", () => {
    expect(heapGrowingPercentFrom("10")).toBe(10);
    expect(heapGrowingPercentFrom(" 120 ")).toBe(120);
    expect(heapGrowingPercentFrom("400")).toBe(400);
    expect(heapGrowingPercentFrom("0")).toBe(0);
  });

  it.each(["9", "401", "1.5", "-20", "fifty", "50%", "1e2", "0x20"])("refuses %j, naming the variable", (value) => {
    expect(() => heapGrowingPercentFrom(value)).toThrow(/TOOLSHED_HEAP_GROWING_PERCENT: ".*" is not a whole number of percent from 10 to 400/);
  });
});
