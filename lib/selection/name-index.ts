import { toolEdits } from "../pipeline/tool-edits";

const GONE: unique symbol = Symbol("gone");

/**
 * Items by name, as `new Map(items.map((item) => [item.name, item]))` would hold them, made from
 * the index of an earlier version of the items in the time the changes take: a map of the
 * earlier items (never copied) with the names changed since over it. Lookups read the changes,
 * then the map; going through the entries makes the whole map once, in the items' order. A
 * registry view of each catalog revision (lib/selection/verify.ts) is made this way, as the tools
 * of one revision differ from the last in a few.
 */
export class NameIndex<V extends { name: string }> implements ReadonlyMap<string, V> {
  private whole: Map<string, V> | undefined;

  private constructor(
    /** What the index stands for, in order. */
    readonly items: readonly V[],
    private readonly base: ReadonlyMap<string, V>,
    private readonly changes: ReadonlyMap<string, V | typeof GONE>,
    /** Whether no two items share a name: the values are then the items, in order. */
    private readonly unique: boolean,
  ) {}

  static of<V extends { name: string }>(items: readonly V[]): NameIndex<V> {
    const base = new Map(items.map((item) => [item.name, item]));
    return new NameIndex(items, base, new Map(), base.size === items.length);
  }

  /**
   * The index of `items` from the index of earlier items; made whole when many changed, or when a
   * name changed is held by two items, which only a whole map resolves as Map does.
   */
  static from<V extends { name: string }>(earlier: NameIndex<V>, items: readonly V[]): NameIndex<V> {
    const limit = Math.max(64, items.length / 8);
    const edits = toolEdits(earlier.items, items, limit);
    if (edits === undefined) return NameIndex.of(items);
    const changes = new Map(earlier.changes);
    for (const edit of edits) {
      for (let index = edit.from; index < edit.from + edit.removed; index++) {
        const removed = earlier.items[index];
        // Another item of the same name would stay: only a whole map says which one it holds then.
        if (earlier.get(removed.name) !== removed) return NameIndex.of(items);
        changes.set(removed.name, GONE);
      }
    }
    const inserted = new Set<string>();
    for (const edit of edits) {
      for (const item of edit.inserted) {
        if ((changes.get(item.name) !== GONE && earlier.get(item.name) !== undefined) || inserted.has(item.name)) return NameIndex.of(items);
        inserted.add(item.name);
        changes.set(item.name, item);
      }
    }
    if (changes.size > limit || !earlier.unique) return NameIndex.of(items);
    return new NameIndex(items, earlier.base, changes, true);
  }

  get(name: string): V | undefined {
    const changed = this.changes.get(name);
    if (changed === GONE) return undefined;
    return changed ?? this.base.get(name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  private all(): Map<string, V> {
    this.whole ??= new Map(this.items.map((item) => [item.name, item]));
    return this.whole;
  }

  get size(): number {
    return this.all().size;
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.all()) callback.call(thisArg, value, key, this);
  }

  entries(): MapIterator<[string, V]> {
    return this.all().entries();
  }

  keys(): MapIterator<string> {
    return this.all().keys();
  }

  values(): MapIterator<V> {
    return this.unique ? (this.items.values() as unknown as MapIterator<V>) : this.all().values();
  }

  /** The values as an array, in order: the items themselves when no two share a name. */
  valueList(): readonly V[] {
    return this.unique ? this.items : [...this.all().values()];
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.all().entries();
  }
}
