import { Lru } from "../../tools/lru";
import type { SelectorCandidate } from "../types";
import { createLocalIndex, type LocalIndex } from "./bm25f";

/** Enough for a few catalogs, each with an index over the catalog and some over candidate sets. */
const LOCAL_INDEX_CACHE_ENTRIES = 16;
/** ≈ 0.2 kB of postings per indexed tool: 400,000 tools is ≈ 80 MB at most. */
const LOCAL_INDEX_CACHE_DOCUMENTS = 400_000;

/**
 * An LRU of built indexes, keyed by the caller (e.g. `${catalogId}@${revision}`), so an index
 * is built once per catalog revision and old revisions fall out. Bounded by entries and by the
 * number of tools indexed in all of them.
 */
export class LocalIndexCache {
  private readonly entries: Lru<string, LocalIndex>;
  /** The index built last per lineage (e.g. a catalog, over its revisions), and its key: the next one is made from it. */
  private readonly latest = new Map<string, { key: string; index: WeakRef<LocalIndex> }>();

  constructor(capacity = LOCAL_INDEX_CACHE_ENTRIES, maxDocuments = LOCAL_INDEX_CACHE_DOCUMENTS) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer");
    if (!Number.isInteger(maxDocuments) || maxDocuments < 1) throw new RangeError("maxDocuments must be a positive integer");
    // An index is kept even when it alone is larger than the bound: the weight is one at least.
    this.entries = new Lru({ maxEntries: capacity, maxWeight: maxDocuments, weigh: (index) => Math.min(maxDocuments, Math.max(1, index.size)) });
  }

  /**
   * The index for `key`, building it from `loadCandidates()` only when it is not cached. An index of
   * a `lineage` (the same catalog at another revision) is made from that lineage's last one, reading
   * again only the tools whose text changed.
   */
  get(key: string, loadCandidates: () => readonly SelectorCandidate[], lineage?: string): LocalIndex {
    return this.entries.getOrCreate(key, () => {
      if (lineage === undefined) return createLocalIndex(loadCandidates());
      const earlier = this.latest.get(lineage);
      const index = createLocalIndex(loadCandidates(), undefined, earlier?.index.deref());
      // The revision before is not asked for again once there is a newer one: its memory goes.
      if (earlier !== undefined) this.entries.delete(earlier.key);
      this.latest.set(lineage, { key, index: new WeakRef(index) });
      return index;
    });
  }

  /** Whether an index of `lineage` is in use: one built from it is still alive. */
  hasLineage(lineage: string): boolean {
    return this.latest.get(lineage)?.index.deref() !== undefined;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Tools indexed in all cached indexes. */
  get documents(): number {
    return this.entries.weight;
  }
}
