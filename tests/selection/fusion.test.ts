import { describe, expect, it } from "vitest";
import { reciprocalRankFusion, RRF_CONSTANT } from "../../lib/selection/fusion";

const ranking = (...names: string[]) => names.map((name, index) => ({ name, score: 100 - index }));

describe("reciprocal-rank fusion", () => {
  it("scores each tool by the sum of 1 / (constant + rank) over the rankings", () => {
    const fused = reciprocalRankFusion([ranking("a", "b", "c"), ranking("c", "a")]);
    expect(fused.map((tool) => tool.name)).toEqual(["a", "c", "b"]);
    expect(fused[0].score).toBeCloseTo(1 / (RRF_CONSTANT + 1) + 1 / (RRF_CONSTANT + 2));
    expect(fused[1].score).toBeCloseTo(1 / (RRF_CONSTANT + 3) + 1 / (RRF_CONSTANT + 1));
    expect(fused[2].score).toBeCloseTo(1 / (RRF_CONSTANT + 2));
  });

  it("puts a tool both rankings place second above one that only one ranking places first", () => {
    const fused = reciprocalRankFusion([ranking("lexical_only", "both"), ranking("semantic_only", "both")]);
    expect(fused.map((tool) => tool.name)).toEqual(["both", "lexical_only", "semantic_only"]);
  });

  it("ignores the rankings' own scores: only ranks count", () => {
    const huge = [
      { name: "a", score: 1e9 },
      { name: "b", score: 1e8 },
    ];
    const tiny = [
      { name: "b", score: 0.02 },
      { name: "a", score: 0.01 },
    ];
    const fused = reciprocalRankFusion([huge, tiny]);
    expect(fused[0].score).toBeCloseTo(fused[1].score);
    // Equal scores: the tool the earlier ranking placed first comes first.
    expect(fused.map((tool) => tool.name)).toEqual(["a", "b"]);
  });

  it("counts a name listed twice in one ranking at its best rank only, and handles empty rankings", () => {
    expect(reciprocalRankFusion([ranking("a", "a", "b")])).toEqual([
      { name: "a", score: 1 / (RRF_CONSTANT + 1) },
      { name: "b", score: 1 / (RRF_CONSTANT + 3) },
    ]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
    expect(reciprocalRankFusion([[], ranking("x")]).map((tool) => tool.name)).toEqual(["x"]);
  });
});
