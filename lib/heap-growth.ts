import { setFlagsFromString } from "node:v8";

export const HEAP_GROWING_PERCENT_VARIABLE = "TOOLSHED_HEAP_GROWING_PERCENT";

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it
 * collects again, in percent. Left to itself, V8 picks up to 4× on a machine with memory to spare:
 * with a 50,000-tool catalog (≈ 360 MB live) the server's RSS then rose to 1.0–1.05 GB between
 * collections; at 50 % it peaked at 720–890 MB, with the same latency on the hot routes
 * (BENCHMARKS.md, issue 29's fourth round).
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** The operator's setting: a whole number of percent from 10 to 400, or 0 for V8's own choice. */
export function heapGrowingPercentFrom(value: string | undefined): number {
  const text = value?.trim() ?? "";
  if (text === "") return DEFAULT_HEAP_GROWING_PERCENT;
  const percent = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (percent === 0 || (percent >= 10 && percent <= 400)) return percent;
  throw new Error(`${HEAP_GROWING_PERCENT_VARIABLE}: "${text}" is not a whole number of percent from 10 to 400, or 0 for V8's own choice.`);
}

/** Sets V8's heap growing factor for the rest of the process (before the heap has grown: at start). */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
