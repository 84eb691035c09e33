import { BM25, createLocalIndex } from "../lib/selection/local";
import type { SelectorCandidate } from "../lib/selection/types";
import { createAiSdkDefaultSearch } from "./aiSdkDefault";
import { splitByParity, type LabelledCase, type LabelledSet, candidatesOf } from "./labelledSet";
import { qualityFigures, type QualityFigures } from "./metrics";
import { fixed, markdownTable } from "./table";

/** Top-10 tool names for a one-message request. */
type Search = (query: string) => Promise<string[]> | string[];

interface NamedSearch {
  label: string;
  search: Search;
}

const DEPTH = 10;

export function selectorsUnderTest(candidates: SelectorCandidate[]): NamedSearch[] {
  const local = createLocalIndex(candidates);
  const bm25 = new BM25(candidates);
  const asQuery = (query: string) => [{ role: "user" as const, content: query }];
  return [
    { label: "local selector (BM25F + lexicon)", search: (query) => local.rank(asQuery(query), DEPTH).map((tool) => tool.name) },
    { label: "plain BM25 (floor)", search: (query) => bm25.rank(asQuery(query), DEPTH).map((tool) => tool.name) },
    {
      label: "AI SDK 7 toolSearch default matcher (run via generateText)",
      search: createAiSdkDefaultSearch(candidates, DEPTH),
    },
  ];
}

export async function evaluate(search: Search, cases: readonly LabelledCase[]): Promise<QualityFigures> {
  const results = [];
  for (const labelled of cases) results.push({ ranked: await search(labelled.query), expected: labelled.expected });
  return qualityFigures(results);
}

/** Quality table over all cases, then the development / held-out halves. */
export async function qualitySection(set: LabelledSet): Promise<string> {
  const { development, heldOut } = splitByParity(set.cases);
  const header = ["selector", "cases", "recall@1", "recall@5", "recall@10", "nDCG@10"];
  const overall: (string | number)[][] = [];
  const halves: (string | number)[][] = [];
  for (const { label, search } of selectorsUnderTest(candidatesOf(set))) {
    for (const [cases, name, rows] of [
      [set.cases, "all", overall],
      [development, "development (even)", halves],
      [heldOut, "held-out (odd)", halves],
    ] as const) {
      const figures = await evaluate(search, cases);
      rows.push([
        label,
        `${name}, ${cases.length}`,
        fixed(figures.recallAt1),
        fixed(figures.recallAt5),
        fixed(figures.recallAt10),
        fixed(figures.ndcgAt10),
      ]);
    }
  }
  return [
    `${set.tools.length} tools, ${set.cases.length} cases.`,
    "",
    markdownTable(header, overall),
    "",
    "Split used while developing the local selector (tuned on even-indexed cases only):",
    "",
    markdownTable(header, halves),
  ].join("\n");
}
