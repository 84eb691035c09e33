import { describe, expect, it } from "vitest";
import { candidatesOf, loadLabelledSet, splitByParity } from "../../bench/labelledSet";
import { qualityFigures } from "../../bench/metrics";
import { BM25, createLocalIndex } from "../../lib/selection/local";
import type { ToolRanker } from "../../lib/selection/types";
import type { LabelledCase } from "../../bench/labelledSet";

const set = loadLabelledSet();
const candidates = candidatesOf(set);

function figures(ranker: ToolRanker, cases: readonly LabelledCase[]) {
  return qualityFigures(
    cases.map((labelled) => ({
      ranked: ranker.rank([{ role: "user", content: labelled.query }], 10).map((tool) => tool.name),
      expected: labelled.expected,
    })),
  );
}

describe("selection quality on the shipped MetaTool set", () => {
  const local = createLocalIndex(candidates);

  it("reaches recall@5 of at least 0.72", () => {
    expect(figures(local, set.cases).recallAt5).toBeGreaterThanOrEqual(0.72);
  });

  it("holds up on the held-out half it was not tuned on", () => {
    const { heldOut } = splitByParity(set.cases);
    expect(figures(local, heldOut).recallAt5).toBeGreaterThanOrEqual(0.72);
  });

  it("keeps the plain BM25 floor where the README reports it", () => {
    expect(figures(new BM25(candidates), set.cases).recallAt5).toBeCloseTo(0.605, 1);
  });
});
