import { BM25 } from "../lib/selection/local";
import type { SelectorCandidate } from "../lib/selection/types";

/**
 * Where a request's clauses part: sentence ends, semicolons, line breaks, commas, enumeration
 * markers ("1)", "2.", "-", "•", "(a)") and "then" / "and" / "finally" / "next" between words.
 */
const CLAUSE = /[.!?;\n]+\s*|,\s*|(?:^|\s)(?:\(?\d+[.)]|\(?[a-z]\)|[-*•])\s+|\s+(?:and\s+then|and|then|finally|next)\s+/iu;

/** The request's clauses, in order, empty ones dropped. */
function peerClauses(query: string): string[] {
  return query
    .split(CLAUSE)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * A keyless peer to beat (issue 26): plain BM25 (k1 1.2, b 0.75) over name + description +
 * parameter names and descriptions; the request split into clauses, each clause ranked on its
 * own, the clauses' rankings interleaved round-robin (first of each clause, then second of each,
 * …) with repeats dropped. A request with one clause is ranked as is.
 */
export function createClauseSplitBm25(candidates: readonly SelectorCandidate[]): (query: string, k: number) => string[] {
  const bm25 = new BM25(candidates, { parameters: true });
  return (query, k) => {
    const clauses = peerClauses(query);
    const rankings = (clauses.length > 0 ? clauses : [query]).map((clause) => bm25.rank([{ role: "user", content: clause }], k).map((tool) => tool.name));
    return interleave(rankings, k);
  };
}

/** The first of each ranking, then the second of each, and so on, repeats dropped, up to k names. */
export function interleave(rankings: readonly (readonly string[])[], k: number): string[] {
  const chosen = new Set<string>();
  for (let depth = 0; chosen.size < k && rankings.some((ranking) => depth < ranking.length); depth++) {
    for (const ranking of rankings) if (ranking[depth] !== undefined && chosen.size < k) chosen.add(ranking[depth]);
  }
  return [...chosen];
}
