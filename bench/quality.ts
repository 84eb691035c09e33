import { reciprocalRankFusion } from "../lib/selection/fusion";
import { BM25, createLocalIndex } from "../lib/selection/local";
import { splitIntents } from "../lib/selection/local/intents";
import type { SelectorCandidate } from "../lib/selection/types";
import { createAiSdkDefaultSearch } from "./aiSdkDefault";
import { createClauseSplitBm25 } from "./clauseBm25";
import { splitByParity, type LabelledCase, type LabelledSet, candidatesOf } from "./labelledSet";
import { qualityFigures, type QualityFigures } from "./metrics";
import { fixed, markdownTable } from "./table";

/** Top-10 tool names for a one-message request. */
type Search = (query: string) => Promise<string[]> | string[];

interface NamedSearch {
  label: string;
  search: Search;
}

/** k of the preselection the issue measures (POST …/preselect with k = 10). */
const DEPTH = 10;

const asQuery = (query: string) => [{ role: "user" as const, content: query }];

/**
 * The local selector (the index the API's local selector ranks with, over candidates made the
 * way preselection makes them) beside its baselines: plain BM25 over name + description, the
 * same with the parameters' names, descriptions and enum values, and that again with the request
 * split into clauses (lib/selection/local/intents.ts) and the clauses' rankings fused by
 * reciprocal rank; and a keyless peer (bench/clauseBm25.ts) that interleaves the clauses' rankings
 * round-robin. The AI SDK's default matcher only where asked: it is slow on large catalogs.
 */
function selectorsUnderTest(candidates: SelectorCandidate[], options: { aiSdk?: boolean } = {}): NamedSearch[] {
  const local = createLocalIndex(candidates);
  const bm25 = new BM25(candidates);
  const bm25Parameters = new BM25(candidates, { parameters: true });
  const clauseSplit = createClauseSplitBm25(candidates);
  const searches: NamedSearch[] = [
    { label: "local selector", search: (query) => local.rank(asQuery(query), DEPTH).map((tool) => tool.name) },
    { label: "BM25, name + description", search: (query) => bm25.rank(asQuery(query), DEPTH).map((tool) => tool.name) },
    { label: "BM25 + parameter text", search: (query) => bm25Parameters.rank(asQuery(query), DEPTH).map((tool) => tool.name) },
    {
      label: "BM25 + parameter text, clauses fused (RRF)",
      search: (query) =>
        reciprocalRankFusion(splitIntents(query).map((clause) => bm25Parameters.rank(asQuery(clause), DEPTH)))
          .slice(0, DEPTH)
          .map((tool) => tool.name),
    },
    { label: "clause-split BM25 (peer: + parameter text, clauses interleaved)", search: (query) => clauseSplit(query, DEPTH) },
  ];
  if (options.aiSdk) {
    searches.push({ label: "AI SDK 7 toolSearch default matcher (run via generateText)", search: createAiSdkDefaultSearch(candidates, DEPTH) });
  }
  return searches;
}

export async function evaluate(search: Search, cases: readonly LabelledCase[]): Promise<QualityFigures> {
  const results = [];
  for (const labelled of cases) results.push({ ranked: await search(labelled.query), expected: labelled.expected });
  return qualityFigures(results);
}

const HEADER = ["selector", "recall@1", "recall@5", "recall@10", "nDCG@10"];

async function figureRows(searches: readonly NamedSearch[], cases: readonly LabelledCase[]): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  for (const { label, search } of searches) {
    const figures = await evaluate(search, cases);
    rows.push([label, fixed(figures.recallAt1), fixed(figures.recallAt5), fixed(figures.recallAt10), fixed(figures.ndcgAt10)]);
  }
  return rows;
}

function describeSet(set: LabelledSet, cases: readonly LabelledCase[]): string {
  const multi = cases.filter((labelled) => labelled.expected.length > 1).length;
  return `${set.tools.length} tools, ${cases.length} cases (${Math.round((100 * multi) / Math.max(1, cases.length))} % need 2+ tools).`;
}

/** One set's table: every selector on all its cases. */
export async function qualityTable(set: LabelledSet, options: { aiSdk?: boolean } = {}): Promise<string> {
  const searches = selectorsUnderTest(candidatesOf(set), options);
  return [describeSet(set, set.cases), "", markdownTable(HEADER, await figureRows(searches, set.cases))].join("\n");
}

/** MetaTool's table over all cases, then its even (development) and odd (held-out) halves. */
export async function metaToolSection(set: LabelledSet): Promise<string> {
  const searches = selectorsUnderTest(candidatesOf(set), { aiSdk: true });
  const { development, heldOut } = splitByParity(set.cases);
  return [
    describeSet(set, set.cases),
    "",
    markdownTable(HEADER, await figureRows(searches, set.cases)),
    "",
    `Development half (even-indexed cases, tuned on), ${development.length} cases:`,
    "",
    markdownTable(HEADER, await figureRows(searches, development)),
    "",
    `Held-out half (odd-indexed cases), ${heldOut.length} cases:`,
    "",
    markdownTable(HEADER, await figureRows(searches, heldOut)),
  ].join("\n");
}
