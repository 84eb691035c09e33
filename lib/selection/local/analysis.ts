import type { SelectorCandidate } from "../types";
import { splitServicePrefix } from "./services";
import type { FieldName } from "./settings";
import { isStopword, segmentCompound, splitWords, stem, type WordSet } from "./tokenise";

/**
 * What the local index reads of a tool's text, before any weighting: its stemmed terms per field,
 * shaped by corpus-wide facts (the words run-together names may be made of, the services' name
 * prefixes), and the words it adds to those facts.
 */

export const FIELD_NAMES: readonly FieldName[] = ["name", "summary", "description", "tags", "parameters", "parameterText", "service"];
export const NAME_FIELD = FIELD_NAMES.indexOf("name");
export const SERVICE_FIELD = FIELD_NAMES.indexOf("service");
const PROSE_FIELDS = (["summary", "description", "tags", "parameterText"] as const).map((field) => FIELD_NAMES.indexOf(field));

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

export const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => {
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
export function fieldWords(candidate: SelectorCandidate): string[][] {
  const texts = fieldTexts(candidate);
  return FIELD_NAMES.map((field) => splitWords(texts[field]));
}

/**
 * The name's service prefix as a field of its own, weighed apart from the words that say what the
 * tool does: naming the service is a strong hint, but not the same hint as naming the action.
 */
export function withServiceField(words: readonly string[][], prefixes: ReadonlySet<string>): string[][] {
  const { service, action } = splitServicePrefix(words[NAME_FIELD], prefixes);
  const fields = [...words];
  fields[NAME_FIELD] = action;
  fields[SERVICE_FIELD] = service;
  return fields;
}

/** Run-together words already segmented during one analysis: the same words recur across a catalog. */
export type SegmentMemo = Map<string, string[]>;

/** Stemmed content terms of one field's words; run-together words are also split into known words. */
export function fieldTerms(words: readonly string[], vocabulary: WordSet, segments: SegmentMemo): string[] {
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
export function documentTerms(candidate: SelectorCandidate, vocabulary: WordSet, prefixes: ReadonlySet<string>, segments: SegmentMemo = new Map()): string[][] {
  return withServiceField(fieldWords(candidate), prefixes).map((words) => fieldTerms(words, vocabulary, segments));
}

/** The words a prose word adds to those run-together names may be made of. */
function vocabularyWordsOf(word: string): string[] {
  if (word.length < 3 || isStopword(word)) return [];
  // Names use the singular more often than prose does ("competitorads" beside "competitors").
  return word.length > 4 && word.endsWith("s") && !word.endsWith("ss") ? [word, word.slice(0, -1)] : [word];
}

/** Moves `counts` by the words the tool's prose adds to the vocabulary. */
export function countVocabulary(counts: Map<string, number>, candidate: SelectorCandidate, change: 1 | -1): void {
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

export const nameWordsOf = (candidate: SelectorCandidate) => splitWords(candidate.name);
