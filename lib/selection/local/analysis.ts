import type { SelectorCandidate } from "../types";
import { prefixCounts, prefixesOf, splitServicePrefix } from "./services";
import type { FieldName } from "./settings";
import { isStopword, segmentCompound, splitWords, stem } from "./tokenise";

/**
 * What the local index reads of a catalog's text, before any weighting: each tool's stemmed terms
 * per field, as term ids, and the corpus-wide facts that shape them (the words run-together names
 * may be made of, the services' name prefixes). Kept with the index so that the next revision of the
 * catalog re-reads only the tools whose text changed (`reanalyseCorpus`), with a result equal to a
 * fresh `analyseCorpus` of the new tools, term ids included.
 */

export const FIELD_NAMES: readonly FieldName[] = ["name", "summary", "description", "tags", "parameters", "parameterText", "service"];
export const NAME_FIELD = FIELD_NAMES.indexOf("name");
export const SERVICE_FIELD = FIELD_NAMES.indexOf("service");
const FIELD_COUNT = FIELD_NAMES.length;
const PROSE_FIELDS = (["summary", "description", "tags", "parameterText"] as const).map((field) => FIELD_NAMES.indexOf(field));

/** Words shorter than this are never split into pieces (segmentCompound's two pieces of three letters). */
const SHORTEST_COMPOUND = 6;

export function fieldTexts(candidate: SelectorCandidate): Record<FieldName, string> {
  return {
    name: candidate.name,
    summary: candidate.summary,
    description: candidate.description ?? "",
    tags: (candidate.tags ?? []).join(" "),
    parameters: (candidate.parameterNames ?? []).join(" "),
    parameterText: candidate.parameterText ?? "",
    service: "",
  };
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => {
  if (a === b) return true;
  const left = a ?? [];
  const right = b ?? [];
  return left.length === right.length && left.every((item, index) => item === right[index]);
};

/** Same text in every field the index reads (the name is matched before). */
export function sameText(indexed: SelectorCandidate, candidate: SelectorCandidate): boolean {
  return (
    indexed === candidate ||
    (indexed.summary === candidate.summary &&
      (indexed.description ?? "") === (candidate.description ?? "") &&
      sameList(indexed.tags, candidate.tags) &&
      sameList(indexed.parameterNames, candidate.parameterNames) &&
      (indexed.parameterText ?? "") === (candidate.parameterText ?? ""))
  );
}

/** Each field's words, split once per tool: they make both the vocabulary and the terms. */
function fieldWords(candidate: SelectorCandidate): string[][] {
  const texts = fieldTexts(candidate);
  return FIELD_NAMES.map((field) => splitWords(texts[field]));
}

/**
 * The name's service prefix as a field of its own, weighed apart from the words that say what the
 * tool does: naming the service is a strong hint, but not the same hint as naming the action.
 */
function withServiceField(words: readonly string[][], prefixes: ReadonlySet<string>): string[][] {
  const { service, action } = splitServicePrefix(words[NAME_FIELD], prefixes);
  const fields = [...words];
  fields[NAME_FIELD] = action;
  fields[SERVICE_FIELD] = service;
  return fields;
}

/** Run-together words already segmented during one analysis: the same words recur across a catalog. */
type SegmentMemo = Map<string, string[]>;

/** Stemmed content terms of one field's words; run-together words are also split into known words. */
function fieldTerms(words: readonly string[], vocabulary: ReadonlySet<string>, segments: SegmentMemo): string[] {
  const terms: string[] = [];
  for (const word of words) {
    if (isStopword(word)) continue;
    terms.push(stem(word));
    let pieces = segments.get(word);
    if (pieces === undefined) {
      pieces = segmentCompound(word, vocabulary);
      segments.set(word, pieces);
    }
    for (const piece of pieces) {
      if (!isStopword(piece)) terms.push(stem(piece));
    }
  }
  return terms;
}

/** One tool's stemmed terms per field, against the corpus's vocabulary and service prefixes. */
export function documentTerms(
  candidate: SelectorCandidate,
  vocabulary: ReadonlySet<string>,
  prefixes: ReadonlySet<string>,
  segments: SegmentMemo = new Map(),
): string[][] {
  return withServiceField(fieldWords(candidate), prefixes).map((words) => fieldTerms(words, vocabulary, segments));
}

/** The words a prose word adds to those run-together names may be made of. */
function vocabularyWordsOf(word: string): string[] {
  if (word.length < 3 || isStopword(word)) return [];
  // Names use the singular more often than prose does ("competitorads" beside "competitors").
  return word.length > 4 && word.endsWith("s") && !word.endsWith("ss") ? [word, word.slice(0, -1)] : [word];
}

function countVocabulary(counts: Map<string, number>, candidate: SelectorCandidate, change: 1 | -1): void {
  const texts = fieldTexts(candidate);
  for (const field of PROSE_FIELDS) {
    for (const word of splitWords(texts[FIELD_NAMES[field]])) {
      for (const known of vocabularyWordsOf(word)) {
        const count = (counts.get(known) ?? 0) + change;
        if (count === 0) counts.delete(known);
        else counts.set(known, count);
      }
    }
  }
}

export interface CorpusAnalysis {
  readonly candidates: readonly SelectorCandidate[];
  /** Each word run-together names may be made of, with the number of its occurrences in the catalog's prose. */
  readonly vocabularyCounts: ReadonlyMap<string, number>;
  readonly vocabulary: ReadonlySet<string>;
  /** Each name prefix of one to three words, with the number of names it begins. */
  readonly prefixCounts: ReadonlyMap<string, number>;
  readonly prefixes: ReadonlySet<string>;
  /** Term ids in order of first occurrence over the documents. */
  readonly termIds: ReadonlyMap<string, number>;
  readonly termNames: readonly string[];
  /** The terms of document d, field after field: `occurrences[documentStarts[d] .. documentStarts[d + 1])`. */
  readonly occurrences: Uint32Array;
  readonly documentStarts: Uint32Array;
  /** `fieldLengths[d * FIELD_NAMES.length + f]`: the number of terms of field f in document d. */
  readonly fieldLengths: Uint32Array;
  /** Words of at least six letters the documents hold: those whose pieces a change of the vocabulary may change. */
  readonly compoundWords: ReadonlySet<string>;
}

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

/** Collects documents' terms as term ids, numbered in order of first occurrence. */
class TermWriter {
  readonly termIds = new Map<string, number>();
  readonly termNames: string[] = [];
  readonly occurrences: GrowingUint32;
  readonly documentStarts: Uint32Array;
  readonly fieldLengths: Uint32Array;
  readonly compoundWords: Set<string>;

  constructor(documents: number, expectedOccurrences: number, compoundWords: Set<string>) {
    this.occurrences = new GrowingUint32(expectedOccurrences);
    this.documentStarts = new Uint32Array(documents + 1);
    this.fieldLengths = new Uint32Array(documents * FIELD_COUNT);
    this.compoundWords = compoundWords;
  }

  idOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIds.set(term, id);
      this.termNames.push(term);
    }
    return id;
  }

  /** Run-together words segmented so far: the same words recur across a catalog. */
  private readonly segments: SegmentMemo = new Map();

  /** Document `doc` read afresh from the tool's text. */
  read(doc: number, candidate: SelectorCandidate, vocabulary: ReadonlySet<string>, prefixes: ReadonlySet<string>): void {
    const words = fieldWords(candidate);
    withServiceField(words, prefixes).forEach((field, index) => {
      const terms = fieldTerms(field, vocabulary, this.segments);
      this.fieldLengths[doc * FIELD_COUNT + index] = terms.length;
      for (const term of terms) this.occurrences.push(this.idOf(term));
    });
    for (const fieldWordList of words) {
      for (const word of fieldWordList) if (word.length >= SHORTEST_COMPOUND && !isStopword(word)) this.compoundWords.add(word);
    }
    this.documentStarts[doc + 1] = this.occurrences.length;
  }

  /** Document `doc` as document `from` of an earlier analysis, its term ids renumbered through `renumber` (-1: not yet). */
  copy(doc: number, earlier: CorpusAnalysis, from: number, renumber: Int32Array): void {
    for (let field = 0; field < FIELD_COUNT; field++) this.fieldLengths[doc * FIELD_COUNT + field] = earlier.fieldLengths[from * FIELD_COUNT + field];
    const end = earlier.documentStarts[from + 1];
    for (let at = earlier.documentStarts[from]; at < end; at++) {
      const old = earlier.occurrences[at];
      let id = renumber[old];
      if (id === -1) {
        id = this.idOf(earlier.termNames[old]);
        renumber[old] = id;
      }
      this.occurrences.push(id);
    }
    this.documentStarts[doc + 1] = this.occurrences.length;
  }

  finish(
    candidates: readonly SelectorCandidate[],
    vocabulary: Omit<CorpusAnalysis, "termIds" | "termNames" | "occurrences" | "documentStarts" | "fieldLengths" | "compoundWords" | "candidates">,
  ): CorpusAnalysis {
    return {
      candidates,
      ...vocabulary,
      termIds: this.termIds,
      termNames: this.termNames,
      occurrences: this.occurrences.values.slice(0, this.occurrences.length),
      documentStarts: this.documentStarts,
      fieldLengths: this.fieldLengths,
      compoundWords: this.compoundWords,
    };
  }
}

const nameWordsOf = (candidate: SelectorCandidate) => splitWords(candidate.name);

/** Reads every tool's text. */
export function analyseCorpus(candidates: readonly SelectorCandidate[]): CorpusAnalysis {
  const vocabularyCounts = new Map<string, number>();
  for (const candidate of candidates) countVocabulary(vocabularyCounts, candidate, 1);
  const counts = prefixCounts(candidates.map(nameWordsOf));
  const vocabulary = new Set(vocabularyCounts.keys());
  const prefixes = prefixesOf(counts);
  const writer = new TermWriter(candidates.length, candidates.length * 64, new Set());
  candidates.forEach((candidate, doc) => {
    writer.read(doc, candidate, vocabulary, prefixes);
  });
  return writer.finish(candidates, { vocabularyCounts, vocabulary, prefixCounts: counts, prefixes });
}

/** Past this share of changed tools, reading them all again is as quick. */
const REANALYSE_AT_MOST = 0.25;

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((item) => b.has(item));

/**
 * The analysis of `candidates`, the catalog's tools at a later revision, made from `earlier`'s: the
 * tools whose text is unchanged are copied, the others read. Equal to `analyseCorpus(candidates)`.
 * A change of the services' prefixes (which reshapes every name of the service), or of most tools,
 * reads everything again.
 */
export function reanalyseCorpus(earlier: CorpusAnalysis, candidates: readonly SelectorCandidate[]): CorpusAnalysis {
  const earlierDoc = new Map<string, number>();
  earlier.candidates.forEach((candidate, doc) => {
    earlierDoc.set(candidate.name, doc);
  });
  // The earlier document each tool is a copy of, or -1 when its text must be read.
  const sources = new Int32Array(candidates.length).fill(-1);
  const kept = new Uint8Array(earlier.candidates.length);
  let changed = 0;
  candidates.forEach((candidate, doc) => {
    const from = earlierDoc.get(candidate.name);
    if (from !== undefined && kept[from] === 0 && sameText(earlier.candidates[from], candidate)) {
      sources[doc] = from;
      kept[from] = 1;
    } else changed++;
  });
  const removed = earlier.candidates.length - (candidates.length - changed);
  if (changed + removed > REANALYSE_AT_MOST * Math.max(candidates.length, 1)) return analyseCorpus(candidates);
  if (changed === 0 && removed === 0 && sources.every((from, doc) => from === doc)) return { ...earlier, candidates };

  const counts = new Map(earlier.prefixCounts);
  const countName = (candidate: SelectorCandidate, change: 1 | -1) => {
    for (const [prefix, count] of prefixCounts([nameWordsOf(candidate)])) {
      const total = (counts.get(prefix) ?? 0) + change * count;
      if (total === 0) counts.delete(prefix);
      else counts.set(prefix, total);
    }
  };
  const vocabularyCounts = new Map(earlier.vocabularyCounts);
  earlier.candidates.forEach((candidate, doc) => {
    if (kept[doc] === 1) return;
    countVocabulary(vocabularyCounts, candidate, -1);
    countName(candidate, -1);
  });
  candidates.forEach((candidate, doc) => {
    if (sources[doc] !== -1) return;
    countVocabulary(vocabularyCounts, candidate, 1);
    countName(candidate, 1);
  });
  const prefixes = prefixesOf(counts);
  if (!sameSet(prefixes, earlier.prefixes)) return analyseCorpus(candidates);
  const vocabulary = new Set(vocabularyCounts.keys());

  readAgainWhereSplitDiffers(earlier, vocabulary, sources);

  const writer = new TermWriter(candidates.length, earlier.occurrences.length, new Set(earlier.compoundWords));
  const renumber = new Int32Array(earlier.termNames.length).fill(-1);
  candidates.forEach((candidate, doc) => {
    const from = sources[doc];
    if (from !== -1) {
      writer.copy(doc, earlier, from, renumber);
      return;
    }
    writer.read(doc, candidate, vocabulary, prefixes);
  });
  return writer.finish(candidates, { vocabularyCounts, vocabulary, prefixCounts: counts, prefixes });
}

/**
 * Marks for reading again (source -1) each copied document that holds a run-together word whose
 * pieces differ with the new vocabulary: one that holds a word that joined or left it.
 */
function readAgainWhereSplitDiffers(earlier: CorpusAnalysis, vocabulary: ReadonlySet<string>, sources: Int32Array): void {
  const vocabularyChanges = [...vocabulary].filter((word) => !earlier.vocabulary.has(word));
  for (const word of earlier.vocabulary) if (!vocabulary.has(word)) vocabularyChanges.push(word);
  if (vocabularyChanges.length === 0) return;
  const reshaped = new Uint8Array(earlier.termNames.length);
  let any = false;
  for (const word of earlier.compoundWords) {
    if (!vocabularyChanges.some((changedWord) => word.includes(changedWord))) continue;
    // Most words that hold a changed one still split the same way ("credit" beside a new "edit").
    if (sameList(segmentCompound(word, earlier.vocabulary), segmentCompound(word, vocabulary))) continue;
    // Every document that holds the word holds its stem as a term.
    const termId = earlier.termIds.get(stem(word));
    if (termId !== undefined) {
      reshaped[termId] = 1;
      any = true;
    }
  }
  if (!any) return;
  sources.forEach((from, doc) => {
    if (from === -1) return;
    const end = earlier.documentStarts[from + 1];
    for (let at = earlier.documentStarts[from]; at < end; at++) {
      if (reshaped[earlier.occurrences[at]] === 1) {
        sources[doc] = -1;
        return;
      }
    }
  });
}
