import { describe, expect, it } from "vitest";
import { evaluationMetrics, ndcgAtK, qualityFigures, recallAtK } from "@/lib/evaluation/metrics";
import * as benchMetrics from "../../bench/metrics";

describe("evaluation metrics", () => {
  it("computes recall@k over the expected tools", () => {
    expect(recallAtK(["a", "b", "c"], ["c", "z"], 3)).toBe(0.5);
    expect(recallAtK(["a", "b", "c"], ["c"], 2)).toBe(0);
    expect(recallAtK(["a"], [], 1)).toBe(0);
  });

  it("computes nDCG@k with binary relevance, ideal ranking at most k deep", () => {
    expect(ndcgAtK(["a", "b"], ["a", "b"], 10)).toBe(1);
    expect(ndcgAtK(["x", "a"], ["a"], 10)).toBeCloseTo(1 / Math.log2(3));
    expect(ndcgAtK(["a", "x"], ["a", "b"], 1)).toBe(1);
  });

  it("names the averaged figures as the API reports them", () => {
    const figures = qualityFigures([
      { ranked: ["a", "b"], expected: ["a"] },
      { ranked: ["x", "y", "z", "w", "b"], expected: ["b"] },
    ]);
    expect(evaluationMetrics(figures)).toEqual({ "recall@1": 0.5, "recall@5": 1, "recall@10": 1, "ndcg@10": (1 + 1 / Math.log2(6)) / 2 });
  });

  it("is what the bench uses", () => {
    expect(benchMetrics.recallAtK).toBe(recallAtK);
    expect(benchMetrics.qualityFigures).toBe(qualityFigures);
  });
});
