// The quality metrics live in lib/, shared with the Evaluate page; the bench reads them from there.
export { mean, qualityFigures, recallAtK, type QualityFigures } from "../lib/evaluation/metrics";

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}
