import { describe, expect, it } from "vitest";
import { ndcgAtK } from "../../lib/evaluation/metrics";
import { percentile, recallAtK } from "../../bench/metrics";
import { syntheticCatalog } from "../../bench/synthetic";

describe("bench metrics", () => {
  it("computes recall@k over the expected tools", () => {
    expect(recallAtK(["a", "b", "c"], ["c", "z"], 3)).toBe(0.5);
    expect(recallAtK(["a", "b", "c"], ["c"], 2)).toBe(0);
  });

  it("computes nDCG@k with binary relevance", () => {
    expect(ndcgAtK(["a", "b"], ["a"], 10)).toBe(1);
    expect(ndcgAtK(["x", "a"], ["a"], 10)).toBeCloseTo(1 / Math.log2(3));
    expect(ndcgAtK(["x", "y"], ["a"], 10)).toBe(0);
  });

  it("takes nearest-rank percentiles", () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 95)).toBe(5);
  });
});

describe("synthetic catalog", () => {
  it("is deterministic for a seed and has unique names", () => {
    const catalog = syntheticCatalog(2_000, 11);
    expect(syntheticCatalog(2_000, 11)).toEqual(catalog);
    expect(new Set(catalog.map((tool) => tool.name)).size).toBe(2_000);
    expect(syntheticCatalog(50, 12)).not.toEqual(syntheticCatalog(50, 11));
  });
});
