/** Share of the expected tools found in the first `k` ranked names. */
export function recallAtK(ranked: readonly string[], expected: readonly string[], k: number): number {
  if (expected.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return expected.filter((name) => top.has(name)).length / expected.length;
}

/** nDCG with binary relevance: each expected tool found at rank r gains 1 / log2(r + 1). */
export function ndcgAtK(ranked: readonly string[], expected: readonly string[], k: number): number {
  const relevant = new Set(expected);
  let gain = 0;
  ranked.slice(0, k).forEach((name, index) => {
    if (relevant.has(name)) gain += 1 / Math.log2(index + 2);
  });
  let ideal = 0;
  for (let index = 0; index < Math.min(k, relevant.size); index++) ideal += 1 / Math.log2(index + 2);
  return ideal === 0 ? 0 : gain / ideal;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export interface QualityFigures {
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  ndcgAt10: number;
}

/** Averages the quality metrics over cases, given each case's ranking and expected tools. */
export function qualityFigures(results: ReadonlyArray<{ ranked: readonly string[]; expected: readonly string[] }>): QualityFigures {
  return {
    recallAt1: mean(results.map((result) => recallAtK(result.ranked, result.expected, 1))),
    recallAt5: mean(results.map((result) => recallAtK(result.ranked, result.expected, 5))),
    recallAt10: mean(results.map((result) => recallAtK(result.ranked, result.expected, 10))),
    ndcgAt10: mean(results.map((result) => ndcgAtK(result.ranked, result.expected, 10))),
  };
}

/** The metrics an evaluation reports, under the names the API and the charts use. */
export const EVALUATION_METRICS = ["recall@1", "recall@5", "recall@10", "ndcg@10"] as const;
export type EvaluationMetric = (typeof EVALUATION_METRICS)[number];

export function evaluationMetrics(figures: QualityFigures): Record<EvaluationMetric, number> {
  return { "recall@1": figures.recallAt1, "recall@5": figures.recallAt5, "recall@10": figures.recallAt10, "ndcg@10": figures.ndcgAt10 };
}
