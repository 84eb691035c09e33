/**
 * A least-recently-used cache bounded by its number of entries and, optionally, by a total
 * weight (bytes, tools, documents…) that `weigh` assigns to each entry. The caches of the hot
 * paths (validation results, token counts, catalog states, tool lists, selector indexes) are all
 * this one structure, so every one of them has a bound that can be stated and tested.
 */
export interface LruOptions<K, V> {
  maxEntries: number;
  /** Upper bound on the sum of `weigh(value, key)` over the entries; unbounded when absent. */
  maxWeight?: number;
  weigh?: (value: V, key: K) => number;
}

export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private readonly maxEntries: number;
  private readonly maxWeight: number;
  private readonly weigh: (value: V, key: K) => number;
  private totalWeight = 0;

  constructor(options: LruOptions<K, V>) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) throw new RangeError("maxEntries must be a positive integer");
    if (options.maxWeight !== undefined && !(options.maxWeight > 0)) throw new RangeError("maxWeight must be positive");
    this.maxEntries = options.maxEntries;
    this.maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
    this.weigh = options.weigh ?? (() => 0);
  }

  /** The value under `key`, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The value under `key` without marking it used. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /**
   * Stores `value` as the most recently used entry, then drops the least recently used ones until
   * both bounds hold. A value heavier than the whole weight bound is not kept at all.
   */
  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value, key);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    while (this.entries.size > this.maxEntries || this.totalWeight > this.maxWeight) {
      const oldest = this.entries.keys().next().value as K;
      this.delete(oldest);
    }
  }

  /** The cached value, or `create()`'s, stored. */
  getOrCreate(key: K, create: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined || this.entries.has(key)) return cached as V;
    const value = create();
    this.set(key, value);
    return value;
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sum of the entries' weights. */
  get weight(): number {
    return this.totalWeight;
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }
}
