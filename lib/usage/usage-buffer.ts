import { USAGE_COUNTERS, type UsageCounter, type UsageEvent } from "./usage-events";

/** The rollups' bucket: an hour. */
export const HOUR_MS = 60 * 60 * 1000;

/** The start of the hour `at` falls in: the rollups' bucket. */
export const hourOf = (at: number) => new Date(Math.floor(at / HOUR_MS) * HOUR_MS);

/** Where the decision happened: the rollup row's key besides the tool and latency bucket. */
export interface UsageKey {
  catalogId: string;
  agent: string;
  model: string;
}

/** What to add to one hourly rollup row: its key, and every counter's increment. */
export interface UsageIncrement extends UsageKey {
  hour: Date;
  tool: string;
  latencyBucket: number;
  counts: Record<UsageCounter, number>;
}

const ZERO_COUNTS = Object.freeze(Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, 0])) as Record<UsageCounter, number>);

/** One decision's events as increments of the rollup rows of the hour `at` falls in. */
export function incrementsOf(key: UsageKey, events: UsageEvent[], at: number): UsageIncrement[] {
  const hour = hourOf(at);
  return events.map((event) => ({
    catalogId: key.catalogId,
    agent: key.agent,
    model: key.model,
    hour,
    tool: event.tool,
    latencyBucket: event.latencyBucket,
    counts: { ...ZERO_COUNTS, ...event.counts },
  }));
}

const rowKey = (row: UsageIncrement) => JSON.stringify([row.catalogId, row.hour.getTime(), row.tool, row.agent, row.model, row.latencyBucket]);

/**
 * Usage counted in memory until it is written: increments of the same rollup row add up, so a
 * write carries one row per tool, agent, model and hour however many decisions it covers.
 */
export class UsageBuffer {
  readonly #rows = new Map<string, UsageIncrement>();

  get size(): number {
    return this.#rows.size;
  }

  add(increments: UsageIncrement[]): void {
    for (const increment of increments) {
      const key = rowKey(increment);
      const row = this.#rows.get(key);
      if (!row) {
        this.#rows.set(key, { ...increment, counts: { ...increment.counts } });
        continue;
      }
      for (const counter of USAGE_COUNTERS) row.counts[counter] += increment.counts[counter];
    }
  }

  /** Everything counted so far, which the buffer forgets (add it back if writing it fails). */
  take(): UsageIncrement[] {
    const rows = [...this.#rows.values()];
    this.#rows.clear();
    return rows;
  }
}
