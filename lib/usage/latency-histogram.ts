/**
 * A fixed log-scale latency histogram: what the hourly usage rollups keep instead of every latency,
 * so that percentiles can still be read after the decisions are gone. Bucket 0 holds latencies up
 * to 1 ms; bucket b > 0 holds (2^((b-1)/4), 2^(b/4)] ms. A latency read back from its bucket is
 * off by at most a factor of 2^(1/8) (about 9 %), or 0.5 ms in bucket 0.
 */
const STEPS_PER_DOUBLING = 4;

/** Up to 2^24 ms (4.6 hours): longer calls share the last bucket. */
export const LATENCY_BUCKETS = 24 * STEPS_PER_DOUBLING + 1;

export function latencyBucket(ms: number): number {
  if (!(ms > 1)) return 0;
  return Math.min(LATENCY_BUCKETS - 1, Math.ceil(Math.log2(ms) * STEPS_PER_DOUBLING));
}

/** The value a bucket stands for: its geometric middle (0.5 ms for bucket 0). */
export function bucketValue(bucket: number): number {
  return bucket === 0 ? 0.5 : 2 ** ((bucket - 0.5) / STEPS_PER_DOUBLING);
}

/** How far a bucket's value may be from a latency in it, as a fraction of that latency (bucket 0 aside). */
export const BUCKET_RELATIVE_ERROR = 2 ** (1 / (2 * STEPS_PER_DOUBLING)) - 1;

/** The q-th quantile (0 < q ≤ 1) of the latencies counted by `counts` (bucket → count), to 0.1 ms; null when it counts none. */
export function histogramPercentile(counts: ReadonlyMap<number, number>, q: number): number | null {
  const buckets = [...counts.entries()].filter(([, count]) => count > 0).sort(([a], [b]) => a - b);
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let index = 0;
  let seen = buckets[0][1];
  while (seen < rank) {
    index += 1;
    seen += buckets[index][1];
  }
  return Math.round(bucketValue(buckets[index][0]) * 10) / 10;
}
