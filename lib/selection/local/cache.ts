import type { SelectorCandidate } from "../types";
import { createLocalIndex, type LocalIndex } from "./bm25f";

/**
 * A small LRU of built indexes, keyed by the caller (e.g. `${catalogId}@${revision}`), so an index
 * is built once per catalog revision and old revisions fall out.
 */
export class LocalIndexCache {
  private readonly entries = new Map<string, LocalIndex>();

  constructor(private readonly capacity = 4) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer");
  }

  /** The index for `key`, building it from `loadCandidates()` only when it is not cached. */
  get(key: string, loadCandidates: () => SelectorCandidate[]): LocalIndex {
    const cached = this.entries.get(key);
    if (cached) {
      // Re-insert to mark as most recently used: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const built = createLocalIndex(loadCandidates());
    this.entries.set(key, built);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return built;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
