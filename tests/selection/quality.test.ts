import { describe, expect, it } from "vitest";
import { candidatesOf, loadLabelledSet, splitByParity } from "../../bench/labelledSet";
import { qualityFigures } from "../../bench/metrics";
import { createClauseSplitBm25 } from "../../bench/clauseBm25";
import { composeInstructions } from "../../bench/multi-step";
import { reciprocalRankFusion } from "../../lib/selection/fusion";
import { BM25, createLocalIndex } from "../../lib/selection/local";
import { splitIntents } from "../../lib/selection/local/intents";
import type { ToolRanker } from "../../lib/selection/types";
import type { LabelledCase } from "../../bench/labelledSet";

function figures(ranker: ToolRanker, cases: readonly LabelledCase[]) {
  return qualityFigures(
    cases.map((labelled) => ({
      ranked: ranker.rank([{ role: "user", content: labelled.query }], 10).map((tool) => tool.name),
      expected: labelled.expected,
    })),
  );
}

// Development sets only: the held-out sets (bench/data/README.md) are not read by tests.
describe("selection quality on the shipped MetaTool set", () => {
  const set = loadLabelledSet();
  const candidates = candidatesOf(set);
  const local = createLocalIndex(candidates);

  it("clears the plain BM25 floor by a wide margin", () => {
    const bm25 = figures(new BM25(candidates), set.cases).recallAt5;
    expect(figures(local, set.cases).recallAt5).toBeGreaterThanOrEqual(bm25 + 0.05);
  });

  it("holds up on the held-out half it was not tuned on", () => {
    const { heldOut } = splitByParity(set.cases);
    expect(figures(local, heldOut).recallAt5).toBeGreaterThanOrEqual(0.66);
  });

  it("keeps the plain BM25 floor where the README reports it", () => {
    expect(figures(new BM25(candidates), set.cases).recallAt5).toBeCloseTo(0.605, 1);
  });
});

describe("selection quality on the development service catalog", () => {
  const set = loadLabelledSet(new URL("../../bench/data/services_a_dev.json", import.meta.url));
  const candidates = candidatesOf(set);

  it("beats plain BM25 that also reads the parameters by 0.05 recall@5", () => {
    const withParameters = figures(new BM25(candidates, { parameters: true }), set.cases).recallAt5;
    expect(figures(createLocalIndex(candidates), set.cases).recallAt5).toBeGreaterThanOrEqual(withParameters + 0.05);
  });
});

describe("selection quality on the development set of multi-step requests (3–6 tools each)", () => {
  const set = loadLabelledSet(new URL("../../bench/data/services_f_dev.json", import.meta.url));
  const candidates = candidatesOf(set);
  const local = figures(createLocalIndex(candidates), set.cases).recallAt5;
  const withParameters = new BM25(candidates, { parameters: true });

  it("beats plain BM25 that also reads the parameters by 0.05 recall@5", () => {
    expect(local).toBeGreaterThanOrEqual(figures(withParameters, set.cases).recallAt5 + 0.05);
  });

  it("beats that BM25 run on each clause of the request, the clauses' rankings fused", () => {
    const clausesFused: ToolRanker = {
      size: candidates.length,
      rank: (messages, k) =>
        reciprocalRankFusion(splitIntents(messages[0].content).map((clause) => withParameters.rank([{ role: "user", content: clause }], k))).slice(0, k),
    };
    expect(local).toBeGreaterThan(figures(clausesFused, set.cases).recallAt5);
  });
});

describe("multi-step instructions composed of the development sets' hand-written requests", () => {
  const sets = ["a_dev", "e_dev", "f_dev"].map((name) => loadLabelledSet(new URL(`../../bench/data/services_${name}.json`, import.meta.url)));
  const instructions = composeInstructions(
    sets.flatMap((set) => set.cases),
    120,
  );

  it("joins 3 or 4 requests for tools of different services, each kept whole", () => {
    for (const instruction of instructions) {
      expect(instruction.steps.length).toBeGreaterThanOrEqual(3);
      expect(instruction.steps.length).toBeLessThanOrEqual(4);
      expect(new Set(instruction.expected.map((tool) => tool.split(/[_.]/)[0])).size).toBe(instruction.expected.length);
      for (const step of instruction.steps)
        expect(instruction.query.toLowerCase()).toContain(
          step
            .toLowerCase()
            .replace(/[.!?]+$/, "")
            .trim(),
        );
    }
    expect(composeInstructions(sets[0].cases, 5)).toEqual(composeInstructions(sets[0].cases, 5));
  });

  it("beats the clause-split BM25 peer by 0.05 recall@5", () => {
    const tools = new Map(sets.flatMap((set) => set.tools).map((tool) => [tool.name, tool]));
    const candidates = candidatesOf({ tools: [...tools.values()], cases: [] });
    const peer = createClauseSplitBm25(candidates);
    const local = createLocalIndex(candidates);
    const recall = (search: (query: string) => string[]) =>
      qualityFigures(instructions.map((instruction) => ({ ranked: search(instruction.query), expected: instruction.expected }))).recallAt5;
    const localRecall = recall((query) => local.rank([{ role: "user", content: query }], 10).map((tool) => tool.name));
    expect(localRecall).toBeGreaterThanOrEqual(recall((query) => peer(query, 10)) + 0.05);
  });
});
