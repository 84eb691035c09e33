import type { SelectorCandidate } from "../types";
import { FIELD_NAMES, fieldTerms, fieldWords, type SegmentMemo, withServiceField } from "./analysis";
import { breadthFactor } from "./weights";
import type { LocalRankingSettings } from "./settings";
import { isStopword, type WordSet } from "./tokenise";

/**
 * Part of an index's tools, read once and never changed: their terms per field and a postings list
 * per term (compressed sparse rows over the segment's documents), each posting with its term's
 * count in each field. A catalog revision's index is a few segments, the tools of those built
 * earlier that changed since left out (`CorpusRevision.dead`), so an edit reads only the edited tools.
 * Weights are not kept here: they depend on corpus-wide figures that move with every edit.
 */

const FIELD_COUNT = FIELD_NAMES.length;
/** Counts of up to 14 fit the 4 bits a field has in a posting's packed counts; larger ones are kept aside. */
const PACKED_MAX = 14;
const NIBBLE = 0xf;
/** The packed counts of a posting whose counts are kept aside (largeCounts): no packed counts have the top 4 bits set. */
const KEPT_ASIDE = 0xffffffff;
/** Words shorter than this are never split into pieces (segmentCompound's two pieces of three letters). */
const SHORTEST_COMPOUND = 6;

/** A Uint32Array that grows as values are pushed. */
class GrowingUint32 {
  values: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.values = new Uint32Array(Math.max(1024, capacity));
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/** The documents' terms as term ids, numbered in order of first occurrence. */
interface ReadDocuments {
  termIds: Map<string, number>;
  termNames: string[];
  /** The terms of document d, field after field: `occurrences[documentStarts[d] .. documentStarts[d + 1])`. */
  occurrences: Uint32Array;
  documentStarts: Uint32Array;
  /** `fieldLengths[d * FIELD_NAMES.length + f]`: the number of terms of field f in document d. */
  fieldLengths: Uint32Array;
  /** Words of at least six letters the documents hold: those whose pieces a change of the vocabulary may change. */
  compoundWords: Set<string>;
}

function readDocuments(candidates: readonly SelectorCandidate[], vocabulary: WordSet, prefixes: ReadonlySet<string>): ReadDocuments {
  const termIds = new Map<string, number>();
  const termNames: string[] = [];
  const occurrences = new GrowingUint32(candidates.length * 64);
  const documentStarts = new Uint32Array(candidates.length + 1);
  const fieldLengths = new Uint32Array(candidates.length * FIELD_COUNT);
  const compoundWords = new Set<string>();
  const segments: SegmentMemo = new Map();
  candidates.forEach((candidate, doc) => {
    const words = fieldWords(candidate);
    withServiceField(words, prefixes).forEach((field, index) => {
      const terms = fieldTerms(field, vocabulary, segments);
      fieldLengths[doc * FIELD_COUNT + index] = terms.length;
      for (const term of terms) {
        let id = termIds.get(term);
        if (id === undefined) {
          id = termNames.length;
          termIds.set(term, id);
          termNames.push(term);
        }
        occurrences.push(id);
      }
    });
    for (const fieldWordList of words) {
      for (const word of fieldWordList) if (word.length >= SHORTEST_COMPOUND && !isStopword(word)) compoundWords.add(word);
    }
    documentStarts[doc + 1] = occurrences.length;
  });
  return { termIds, termNames, occurrences: occurrences.values.slice(0, occurrences.length), documentStarts, fieldLengths, compoundWords };
}

export class Segment {
  readonly names: readonly string[];
  /** The first document of each name. */
  readonly byName: ReadonlyMap<string, number>;
  readonly termIds: ReadonlyMap<string, number>;
  readonly termNames: readonly string[];
  readonly occurrences: Uint32Array;
  readonly documentStarts: Uint32Array;
  readonly fieldLengths: Uint32Array;
  readonly compoundWords: ReadonlySet<string>;
  /** Each document's number of distinct terms. */
  readonly distinctTerms: Uint32Array;
  /** The postings of term t: `docs[offsets[t] .. offsets[t + 1])`. */
  readonly offsets: Uint32Array;
  readonly docs: Uint32Array;
  /** Each posting's count per field, 4 bits a field. */
  private readonly packed: Uint32Array;
  /** Postings with a count over PACKED_MAX in some field: all their counts. */
  private readonly largeCounts = new Map<number, Uint32Array>();
  /**
   * Frozen candidates found to have the text of one of the documents (derived data: neither changes),
   * so the next revision's candidate sets, which share them, are matched without comparing text again.
   */
  private readonly textTwins = new WeakMap<SelectorCandidate, number>();
  /** The documents' breadth factors for the breadth limit of the revisions that use the segment (derived data only). */
  private breadthMemo: { limit: number; settings: LocalRankingSettings; breadth: Float32Array } | undefined;

  constructor(
    readonly candidates: readonly SelectorCandidate[],
    vocabulary: WordSet,
    prefixes: ReadonlySet<string>,
  ) {
    this.names = candidates.map((candidate) => candidate.name);
    const byName = new Map<string, number>();
    this.names.forEach((name, doc) => {
      if (!byName.has(name)) byName.set(name, doc);
    });
    this.byName = byName;
    const read = readDocuments(candidates, vocabulary, prefixes);
    this.termIds = read.termIds;
    this.termNames = read.termNames;
    this.occurrences = read.occurrences;
    this.documentStarts = read.documentStarts;
    this.fieldLengths = read.fieldLengths;
    this.compoundWords = read.compoundWords;
    this.distinctTerms = new Uint32Array(candidates.length);
    this.offsets = new Uint32Array(read.termNames.length + 1);
    this.docs = this.countPostings();
    this.packed = new Uint32Array(this.docs.length);
    this.fillPostings();
  }

  get size(): number {
    return this.names.length;
  }

  /** Document frequencies into `offsets` and distinct terms per document; returns the postings' docs, to fill. */
  private countPostings(): Uint32Array {
    const termCount = this.termNames.length;
    const lastDocument = new Int32Array(termCount).fill(-1);
    for (let doc = 0; doc < this.size; doc++) {
      for (let at = this.documentStarts[doc]; at < this.documentStarts[doc + 1]; at++) {
        const id = this.occurrences[at];
        if (lastDocument[id] !== doc) {
          lastDocument[id] = doc;
          this.offsets[id + 1]++;
          this.distinctTerms[doc]++;
        }
      }
    }
    for (let id = 0; id < termCount; id++) this.offsets[id + 1] += this.offsets[id];
    return new Uint32Array(this.offsets[termCount]);
  }

  private fillPostings(): void {
    const termCount = this.termNames.length;
    const cursor = this.offsets.slice(0, termCount);
    const slotIn = new Int32Array(termCount).fill(-1);
    for (let doc = 0; doc < this.size; doc++) {
      let at = this.documentStarts[doc];
      for (let field = 0; field < FIELD_COUNT; field++) {
        for (const end = at + this.fieldLengths[doc * FIELD_COUNT + field]; at < end; at++) {
          const id = this.occurrences[at];
          // slotIn holds the slot of (id, doc) once the document's first occurrence of id made it.
          let slot = slotIn[id];
          if (slot === -1 || this.docs[slot] !== doc) {
            slot = cursor[id]++;
            slotIn[id] = slot;
            this.docs[slot] = doc;
          }
          this.count(slot, field);
        }
      }
    }
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

  /** The document a frozen candidate was found to have the text of (`rememberTwin`). */
  twinOf(candidate: SelectorCandidate): number | undefined {
    return this.textTwins.get(candidate);
  }

  rememberTwin(candidate: SelectorCandidate, doc: number): void {
    if (Object.isFrozen(candidate)) this.textTwins.set(candidate, doc);
  }

  /** The counts per field of the posting at `slot`, into `counts`. */
  countsOf(slot: number, counts: Uint32Array): void {
    const packed = this.packed[slot];
    if (packed === KEPT_ASIDE) counts.set(this.largeCounts.get(slot)!);
    else for (let field = 0; field < FIELD_COUNT; field++) counts[field] = (packed >>> (field * 4)) & NIBBLE;
  }

  /** The documents' `breadthFactor`s for a breadth limit; most edits leave the limit as it was, so the last ones are kept. */
  breadthFor(limit: number, settings: LocalRankingSettings): Float32Array {
    const memo = this.breadthMemo;
    if (memo !== undefined && memo.limit === limit && memo.settings === settings) return memo.breadth;
    const breadth = new Float32Array(this.size);
    for (let doc = 0; doc < this.size; doc++) breadth[doc] = breadthFactor(this.distinctTerms[doc], limit, settings);
    this.breadthMemo = { limit, settings, breadth };
    return breadth;
  }

  /** One document's distinct term ids, in order of first occurrence. */
  documentTermIds(doc: number): number[] {
    const seen = new Set<number>();
    for (let at = this.documentStarts[doc]; at < this.documentStarts[doc + 1]; at++) seen.add(this.occurrences[at]);
    return [...seen];
  }
}
