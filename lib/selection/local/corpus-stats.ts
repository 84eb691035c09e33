import { FIELD_NAMES } from "./analysis";
import type { Segment } from "./segment";
import type { LocalRankingSettings } from "./settings";
import type { FieldLengths } from "./weights";

const FIELD_COUNT = FIELD_NAMES.length;

/**
 * The corpus-wide figures BM25F weights depend on, for the live documents of a revision: kept as
 * integers (document count, total field lengths, how many documents have each number of distinct
 * terms), so a revision's figures are updated by its changed documents alone and equal a fresh
 * count exactly.
 */
export class CorpusStatistics {
  private constructor(
    readonly documentCount: number,
    private readonly totalLengths: readonly number[],
    /** `distinctTermCounts[n]`: the documents with n distinct terms. */
    private readonly distinctTermCounts: Uint32Array,
  ) {}

  static empty(): CorpusStatistics {
    return new CorpusStatistics(0, new Array<number>(FIELD_COUNT).fill(0), new Uint32Array(0));
  }

  /** These figures with the documents `leaving` taken out and those `arriving` added (a document is [segment, doc]). */
  changed(leaving: Iterable<readonly [Segment, number]>, arriving: Iterable<readonly [Segment, number]>): CorpusStatistics {
    const totals = [...this.totalLengths];
    let histogram = this.distinctTermCounts.slice();
    let documentCount = this.documentCount;
    const move = ([segment, doc]: readonly [Segment, number], change: 1 | -1) => {
      documentCount += change;
      for (let field = 0; field < FIELD_COUNT; field++) totals[field] += change * segment.fieldLengths[doc * FIELD_COUNT + field];
      const distinct = segment.distinctTerms[doc];
      if (distinct >= histogram.length) {
        const grown = new Uint32Array(Math.max(distinct + 1, histogram.length * 2));
        grown.set(histogram);
        histogram = grown;
      }
      histogram[distinct] += change;
    };
    for (const document of leaving) move(document, -1);
    for (const document of arriving) move(document, 1);
    return new CorpusStatistics(documentCount, totals, histogram);
  }

  /** Average number of terms per field. */
  averageLength(): FieldLengths {
    return this.totalLengths.map((total) => total / Math.max(1, this.documentCount));
  }

  /** Distinct terms a tool may have before its weights are scaled down: the pivot times the catalog's median. */
  breadthLimit(settings: LocalRankingSettings): number {
    if (this.documentCount === 0) return 0;
    // The median is the distinct-term count at sorted position ⌊n / 2⌋.
    const position = Math.floor(this.documentCount / 2);
    let seen = 0;
    for (let distinct = 0; distinct < this.distinctTermCounts.length; distinct++) {
      seen += this.distinctTermCounts[distinct];
      if (seen > position) return settings.breadth.pivot * distinct;
    }
    return 0;
  }
}
