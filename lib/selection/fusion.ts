import type { RankedTool } from "./types";

/** The usual constant of reciprocal-rank fusion: it keeps one list's top rank from outweighing agreement. */
export const RRF_CONSTANT = 60;

/**
 * Reciprocal-rank fusion: each tool scores the sum of 1 / (constant + rank) over the rankings it
 * appears in (rank from 1), so scores of different scales (BM25, cosine) need no calibration.
 * Best first; on equal scores, the tool an earlier ranking placed first comes first.
 */
export function reciprocalRankFusion(rankings: readonly (readonly RankedTool[])[], constant = RRF_CONSTANT): RankedTool[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    const seen = new Set<string>();
    ranking.forEach(({ name }, index) => {
      // A name listed twice in one ranking counts at its best rank only.
      if (seen.has(name)) return;
      seen.add(name);
      scores.set(name, (scores.get(name) ?? 0) + 1 / (constant + index + 1));
    });
  }
  // Array.prototype.sort is stable: ties keep the order of first appearance.
  return [...scores].map(([name, score]) => ({ name, score })).sort((a, b) => b.score - a.score);
}
