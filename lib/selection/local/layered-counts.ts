/**
 * Counts by word that a catalog's next revision changes in a few places: each revision's table
 * shares its predecessor's base and adds its own changes on top, so an edit costs the changes, not a
 * copy of every count. The changes are folded into a new base once they are many.
 */
export class LayeredCounts {
  private constructor(
    private readonly base: ReadonlyMap<string, number>,
    /** Counts that differ from the base's; 0 for a word gone. */
    private readonly changes: ReadonlyMap<string, number>,
  ) {}

  static of(counts: ReadonlyMap<string, number>): LayeredCounts {
    return new LayeredCounts(counts, new Map());
  }

  get(word: string): number {
    return this.changes.get(word) ?? this.base.get(word) ?? 0;
  }

  /** Whether the word is counted at all: the table as the set of its words. */
  has(word: string): boolean {
    return this.get(word) > 0;
  }

  /** The table with each word's count moved by its delta. */
  with(deltas: ReadonlyMap<string, number>): LayeredCounts {
    const changes = new Map(this.changes);
    for (const [word, delta] of deltas) if (delta !== 0) changes.set(word, this.get(word) + delta);
    // Folded in once the changes are a fair share of the base, so a lookup stays two map reads and an edit's copy stays small.
    if (changes.size <= 256 + this.base.size / 8) return new LayeredCounts(this.base, changes);
    const folded = new Map(this.base);
    for (const [word, count] of changes) {
      if (count === 0) folded.delete(word);
      else folded.set(word, count);
    }
    return LayeredCounts.of(folded);
  }
}
