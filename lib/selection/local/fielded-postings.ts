import type { CorpusAnalysis } from "./analysis";
import { FIELD_NAMES, NAME_FIELD, SERVICE_FIELD } from "./analysis";
import { inverseDocumentFrequency, type Postings } from "./postings";
import type { LocalRankingSettings } from "./settings";

/**
 * BM25F postings over an analysed corpus whose weights are worked out per term when a query first
 * needs them, not for every posting at build: a weight depends on corpus-wide figures (average field
 * lengths, document frequencies, the breadth limit) that move with every edit, so a new catalog
 * revision would otherwise pay for every posting again. Built from the analysis in integer passes:
 * each posting keeps its term's count in each field (4 bits a field, larger counts aside), and a
 * weight is the same sum, in the same order, as a whole build's (see `frequencyOf`).
 */

const FIELD_COUNT = FIELD_NAMES.length;
/** Counts of up to 14 fit the 4 bits a field has in a posting's packed counts; larger ones are kept aside. */
const PACKED_MAX = 14;
const NIBBLE = 0xf;
/** The packed counts of a posting whose counts are kept aside (largeCounts): no packed counts have the top 4 bits set. */
const KEPT_ASIDE = 0xffffffff;

/** Average number of terms per field over the documents. */
export type FieldLengths = readonly number[];

/**
 * The scale of a tool's weights for the breadth of its vocabulary (see `LocalRankingSettings.breadth`);
 * `limit` is the number of distinct terms left untouched.
 */
export function breadthFactor(distinctTerms: number, limit: number, settings: LocalRankingSettings): number {
  return limit <= 0 || distinctTerms <= limit ? 1 : (limit / distinctTerms) ** settings.breadth.power;
}

/** Distinct terms a tool may have before its weights are scaled down: the pivot times the catalog's median. */
function breadthLimit(distinctTerms: Uint32Array, settings: LocalRankingSettings): number {
  if (distinctTerms.length === 0) return 0;
  const sorted = distinctTerms.slice().sort();
  return settings.breadth.pivot * sorted[Math.floor(sorted.length / 2)];
}

/**
 * What one occurrence of a term adds to its pseudo-frequency: the field's weight, length-normalised,
 * and scaled by the tool's breadth (`breadthFactor`) except in the name, which is at most 64
 * characters and says what the tool is.
 */
export function fieldIncrement(field: number, length: number, averageLength: FieldLengths, breadth: number, settings: LocalRankingSettings): number {
  const { weight, b } = settings.fields[FIELD_NAMES[field]];
  const scale = field === NAME_FIELD || field === SERVICE_FIELD ? 1 : breadth;
  return (scale * weight) / (1 - b + (b * length) / Math.max(averageLength[field], 1e-9));
}

/** A single saturation of the summed pseudo-frequency, so a term repeated across fields cannot score as several terms. */
export function saturated(frequency: number, idf: number, k1: number): number {
  return (idf * frequency * (k1 + 1)) / (frequency + k1);
}

export class FieldedPostings {
  readonly postings: Postings;
  readonly averageLength: FieldLengths;
  readonly breadthLimit: number;
  /** Each document's `breadthFactor`. */
  readonly breadth: Float32Array;
  /** `increments[doc * FIELD_COUNT + field]`: what one occurrence in that field of that document adds (fieldIncrement). */
  private readonly increments: Float64Array;
  /** Each posting's count per field, 4 bits a field. */
  private readonly packed: Uint32Array;
  /** Postings with a count over PACKED_MAX in some field: all their counts. */
  private readonly largeCounts = new Map<number, Uint32Array>();
  /** Whether a term's posting weights are worked out yet. */
  private readonly weighed: Uint8Array;
  private readonly weights: Float32Array;

  constructor(
    private readonly analysis: CorpusAnalysis,
    private readonly settings: LocalRankingSettings,
  ) {
    const { candidates, occurrences, documentStarts, fieldLengths } = analysis;
    const documents = candidates.length;
    const termCount = analysis.termNames.length;
    const documentFrequency = new Uint32Array(termCount);
    const distinctTerms = new Uint32Array(documents);
    const lastDocument = new Int32Array(termCount).fill(-1);
    for (let doc = 0; doc < documents; doc++) {
      for (let at = documentStarts[doc]; at < documentStarts[doc + 1]; at++) {
        const id = occurrences[at];
        if (lastDocument[id] !== doc) {
          lastDocument[id] = doc;
          documentFrequency[id]++;
          distinctTerms[doc]++;
        }
      }
    }
    const totalLengths = new Array<number>(FIELD_COUNT).fill(0);
    for (let doc = 0; doc < documents; doc++) for (let field = 0; field < FIELD_COUNT; field++) totalLengths[field] += fieldLengths[doc * FIELD_COUNT + field];
    this.averageLength = totalLengths.map((total) => total / Math.max(1, documents));
    this.breadthLimit = breadthLimit(distinctTerms, settings);
    this.breadth = new Float32Array(documents);
    this.increments = new Float64Array(documents * FIELD_COUNT);
    for (let doc = 0; doc < documents; doc++) {
      this.breadth[doc] = breadthFactor(distinctTerms[doc], this.breadthLimit, settings);
      for (let field = 0; field < FIELD_COUNT; field++) {
        const length = fieldLengths[doc * FIELD_COUNT + field];
        if (length > 0) this.increments[doc * FIELD_COUNT + field] = fieldIncrement(field, length, this.averageLength, this.breadth[doc], settings);
      }
    }

    const offsets = new Uint32Array(termCount + 1);
    for (let id = 0; id < termCount; id++) offsets[id + 1] = offsets[id] + documentFrequency[id];
    const docs = new Uint32Array(offsets[termCount]);
    this.packed = new Uint32Array(docs.length);
    const cursor = offsets.slice(0, termCount);
    const slotIn = new Int32Array(termCount).fill(-1);
    for (let doc = 0; doc < documents; doc++) {
      let at = documentStarts[doc];
      for (let field = 0; field < FIELD_COUNT; field++) {
        for (const end = at + fieldLengths[doc * FIELD_COUNT + field]; at < end; at++) {
          const id = occurrences[at];
          // slotIn holds the slot of (id, doc) once the document's first occurrence of id made it.
          let slot = slotIn[id];
          if (slot === -1 || docs[slot] !== doc) {
            slot = cursor[id]++;
            slotIn[id] = slot;
            docs[slot] = doc;
          }
          this.count(slot, field);
        }
      }
    }
    this.weights = new Float32Array(docs.length);
    this.postings = { termIds: analysis.termIds, offsets, docs, weights: this.weights };
    this.weighed = new Uint8Array(termCount);
  }

  private count(slot: number, field: number): void {
    const packed = this.packed[slot];
    const shift = field * 4;
    if (packed !== KEPT_ASIDE && ((packed >>> shift) & NIBBLE) < PACKED_MAX) {
      this.packed[slot] = packed + (1 << shift);
      return;
    }
    let counts = this.largeCounts.get(slot);
    if (counts === undefined) {
      counts = new Uint32Array(FIELD_COUNT);
      for (let each = 0; each < FIELD_COUNT; each++) counts[each] = (packed >>> (each * 4)) & NIBBLE;
      this.largeCounts.set(slot, counts);
      this.packed[slot] = KEPT_ASIDE;
    }
    counts[field]++;
  }

  private countOf(slot: number, field: number): number {
    const packed = this.packed[slot];
    return packed === KEPT_ASIDE ? this.largeCounts.get(slot)![field] : (packed >>> (field * 4)) & NIBBLE;
  }

  documentFrequency(termId: number): number {
    return this.postings.offsets[termId + 1] - this.postings.offsets[termId];
  }

  idf(termId: number): number {
    return inverseDocumentFrequency(this.analysis.candidates.length, this.documentFrequency(termId));
  }

  /**
   * A pseudo-frequency: each occurrence's increment added in turn, field after field, as a whole
   * build adds them, so the weights are the same to the last bit.
   */
  private frequencyOf(doc: number, counts: (field: number) => number): number {
    let frequency = 0;
    for (let field = 0; field < FIELD_COUNT; field++) {
      const increment = this.increments[doc * FIELD_COUNT + field];
      for (let occurrence = counts(field); occurrence > 0; occurrence--) frequency += increment;
    }
    return frequency;
  }

  /** Makes sure the postings' weights of these terms are worked out (accumulate reads them). */
  weigh(termIds: Iterable<number>): void {
    const { offsets, docs } = this.postings;
    for (const id of termIds) {
      if (this.weighed[id] === 1) continue;
      const idf = this.idf(id);
      for (let slot = offsets[id]; slot < offsets[id + 1]; slot++) {
        this.weights[slot] = saturated(
          this.frequencyOf(docs[slot], (field) => this.countOf(slot, field)),
          idf,
          this.settings.k1,
        );
      }
      this.weighed[id] = 1;
    }
  }

  /** One document's terms and weights, by term id (ascending), for feedback from the top documents. */
  documentTerms(doc: number): { terms: number[]; weights: number[] } {
    const { occurrences, documentStarts, fieldLengths } = this.analysis;
    const counts = new Map<number, Uint32Array>();
    let at = documentStarts[doc];
    for (let field = 0; field < FIELD_COUNT; field++) {
      for (const end = at + fieldLengths[doc * FIELD_COUNT + field]; at < end; at++) {
        const id = occurrences[at];
        let perField = counts.get(id);
        if (perField === undefined) {
          perField = new Uint32Array(FIELD_COUNT);
          counts.set(id, perField);
        }
        perField[field]++;
      }
    }
    const terms = [...counts.keys()].sort((a, b) => a - b);
    // Stored as a posting's weight is (Float32), so feedback reads what ranking reads.
    const weights = terms.map((id) =>
      Math.fround(
        saturated(
          this.frequencyOf(doc, (field) => counts.get(id)![field]),
          this.idf(id),
          this.settings.k1,
        ),
      ),
    );
    return { terms, weights };
  }
}
