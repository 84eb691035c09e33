import { FIELD_NAMES } from "./analysis";
import { inverseDocumentFrequency } from "./postings";
import { type CorpusRevision, segmentDocument } from "./revision";
import type { Segment } from "./segment";
import type { LocalRankingSettings } from "./settings";
import { FreshTermOrder } from "./term-order";
import { FieldNormaliser, saturated } from "./weights";

/**
 * BM25F postings of a revision's live documents, whose weights are worked out per term when a
 * query first needs them, not for every posting at build: a weight depends on corpus-wide figures
 * (average field lengths, document frequencies, the breadth limit) that move with every edit, so a
 * new catalog revision would otherwise pay for every posting again. A weight is the same sum, in the
 * same order, as a whole build's (see `frequencyOf`), so every revision ranks as a fresh index does.
 */

const FIELD_COUNT = FIELD_NAMES.length;

/** A term's postings over a revision's live documents (by ascending segment, then document), with their weights. */
interface TermPostings {
  readonly docs: Uint32Array;
  readonly weights: Float32Array;
}

/** Documents' scores for a query, and those touched in first-touch order, so top-k only looks at them. */
export interface Accumulated {
  scores: Float64Array;
  touched: Uint32Array;
  touchedCount: number;
}

export class FieldedPostings {
  readonly normaliser: FieldNormaliser;
  readonly breadthLimit: number;
  /** The revision's tools: its live documents. */
  readonly documentCount: number;
  // Derived data only, worked out when first asked for.
  private readonly postingsByTerm = new Map<string, TermPostings>();
  private readonly frequencyByTerm = new Map<string, number>();
  private breadthByDocument: Float32Array | undefined;
  private readonly termOrder: FreshTermOrder;

  constructor(
    private readonly revision: CorpusRevision,
    private readonly settings: LocalRankingSettings,
  ) {
    this.normaliser = new FieldNormaliser(revision.statistics.averageLength(), settings);
    this.breadthLimit = revision.statistics.breadthLimit(settings);
    this.documentCount = revision.statistics.documentCount;
    this.termOrder = new FreshTermOrder(revision);
  }

  /** Each document's `breadthFactor`, gone ones included (they are never touched). */
  get breadth(): Float32Array {
    if (this.breadthByDocument === undefined) {
      const breadth = new Float32Array(this.revision.dead.length);
      this.revision.segments.forEach((segment, index) => {
        breadth.set(segment.breadthFor(this.breadthLimit, this.settings), this.revision.bases[index]);
      });
      this.breadthByDocument = breadth;
    }
    return this.breadthByDocument;
  }

  /** How many live documents hold the term. */
  documentFrequency(term: string): number {
    let frequency = this.frequencyByTerm.get(term);
    if (frequency === undefined) {
      frequency = 0;
      for (const segment of this.revision.segments) {
        const termId = segment.termIds.get(term);
        if (termId !== undefined) frequency += segment.offsets[termId + 1] - segment.offsets[termId];
      }
      frequency -= this.revision.deadTermCounts.get(term) ?? 0;
      this.frequencyByTerm.set(term, frequency);
    }
    return frequency;
  }

  private idf(term: string): number {
    return inverseDocumentFrequency(this.documentCount, this.documentFrequency(term));
  }

  /**
   * A pseudo-frequency: each occurrence's increment added in turn, field after field, as a whole
   * build adds them, so the weights are the same to the last bit.
   */
  private frequencyOf(segment: Segment, doc: number, breadth: number, counts: ArrayLike<number>): number {
    let frequency = 0;
    for (let field = 0; field < FIELD_COUNT; field++) {
      if (counts[field] === 0) continue;
      const increment = this.normaliser.increment(field, segment.fieldLengths[doc * FIELD_COUNT + field], breadth);
      for (let occurrence = counts[field]; occurrence > 0; occurrence--) frequency += increment;
    }
    return frequency;
  }

  /** The term's postings over the live documents, weighed; undefined for a term no tool holds. */
  postingsOf(term: string): TermPostings | undefined {
    const known = this.postingsByTerm.get(term);
    if (known !== undefined) return known;
    const documentFrequency = this.documentFrequency(term);
    if (documentFrequency === 0) return undefined;
    const idf = this.idf(term);
    const docs = new Uint32Array(documentFrequency);
    const weights = new Float32Array(documentFrequency);
    const counts = new Uint32Array(FIELD_COUNT);
    let at = 0;
    this.revision.segments.forEach((segment, index) => {
      const termId = segment.termIds.get(term);
      if (termId === undefined) return;
      const base = this.revision.bases[index];
      const breadth = segment.breadthFor(this.breadthLimit, this.settings);
      for (let slot = segment.offsets[termId]; slot < segment.offsets[termId + 1]; slot++) {
        const local = segment.docs[slot];
        if (this.revision.dead[base + local] === 1) continue;
        segment.countsOf(slot, counts);
        docs[at] = base + local;
        weights[at++] = saturated(this.frequencyOf(segment, local, breadth[local], counts), idf, this.settings.k1);
      }
    });
    const postings = { docs, weights };
    this.postingsByTerm.set(term, postings);
    return postings;
  }

  /** Adds `queryWeight · postingWeight` of each query term the index knows to the documents' scores. */
  accumulate(queryWeights: ReadonlyMap<string, number>): Accumulated {
    const documents = this.revision.dead.length;
    const scores = new Float64Array(documents);
    const seen = new Uint8Array(documents);
    const touched = new Uint32Array(documents);
    let touchedCount = 0;
    for (const [term, queryWeight] of queryWeights) {
      const postings = this.postingsOf(term);
      if (postings === undefined) continue;
      const { docs, weights } = postings;
      for (let at = 0; at < docs.length; at++) {
        const doc = docs[at];
        scores[doc] += queryWeight * weights[at];
        if (seen[doc] === 0) {
          seen[doc] = 1;
          touched[touchedCount++] = doc;
        }
      }
    }
    return { scores, touched, touchedCount };
  }

  /** One document's terms and weights, in a fresh build's order of terms (`FreshTermOrder`), for feedback from the top documents. */
  documentTerms(doc: number): { terms: string[]; weights: number[] } {
    const [segment, local] = segmentDocument(this.revision, doc);
    const counts = new Map<string, Uint32Array>();
    let at = segment.documentStarts[local];
    for (let field = 0; field < FIELD_COUNT; field++) {
      for (const end = at + segment.fieldLengths[local * FIELD_COUNT + field]; at < end; at++) {
        const term = segment.termNames[segment.occurrences[at]];
        let perField = counts.get(term);
        if (perField === undefined) {
          perField = new Uint32Array(FIELD_COUNT);
          counts.set(term, perField);
        }
        perField[field]++;
      }
    }
    const breadth = segment.breadthFor(this.breadthLimit, this.settings)[local];
    const terms = this.termOrder.sorted([...counts.keys()]);
    // Stored as a posting's weight is (Float32), so feedback reads what ranking reads.
    const weights = terms.map((term) => Math.fround(saturated(this.frequencyOf(segment, local, breadth, counts.get(term)!), this.idf(term), this.settings.k1)));
    return { terms, weights };
  }
}
