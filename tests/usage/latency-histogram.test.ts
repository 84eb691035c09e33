import { describe, expect, it } from "vitest";
import { BUCKET_RELATIVE_ERROR, bucketValue, histogramPercentile, LATENCY_BUCKETS, latencyBucket } from "@/lib/usage/latency-histogram";

/** The exact q-th quantile (nearest rank) of `values`. */
function exactPercentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];
}

function histogramOf(values: number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(latencyBucket(value), (counts.get(latencyBucket(value)) ?? 0) + 1);
  return counts;
}

describe("the latency histogram", () => {
  it("puts every latency in a bucket whose value is within the bucket error of it", () => {
    for (const ms of [1.5, 2, 3, 7, 10, 42, 99, 250, 1_000, 12_345, 600_000]) {
      const value = bucketValue(latencyBucket(ms));
      expect(Math.abs(value - ms) / ms).toBeLessThanOrEqual(BUCKET_RELATIVE_ERROR + 1e-9);
    }
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(1)).toBe(0);
    expect(latencyBucket(10 * 60 * 60 * 1000)).toBe(LATENCY_BUCKETS - 1);
  });

  it("reads p50, p95 and p99 back within the bucket error of the exact ones", () => {
    // A skewed spread, as call latencies are: most fast, a long tail.
    const values = Array.from({ length: 1_000 }, (_, index) => Math.round(20 + (index % 97) * 3 + (index % 50 === 0 ? 2_000 + index : 0)));
    const counts = histogramOf(values);
    for (const q of [0.5, 0.95, 0.99]) {
      const exact = exactPercentile(values, q);
      const read = histogramPercentile(counts, q)!;
      // The read value is rounded to 0.1 ms as well.
      expect(Math.abs(read - exact)).toBeLessThanOrEqual(exact * BUCKET_RELATIVE_ERROR + 0.05);
    }
  });

  it("answers null for no latencies, and the single bucket's value for one", () => {
    expect(histogramPercentile(new Map(), 0.5)).toBeNull();
    expect(histogramPercentile(new Map([[latencyBucket(100), 1]]), 0.99)).toBeCloseTo(100, -1);
  });
});
