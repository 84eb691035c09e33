import type { ConversationMessage, RankedTool, SelectorCandidate, ToolRanker } from "../types";
import { buildRelatedTerms, genericRequestStems, lexiconWords, type RelatedTerms } from "./expand";
import { Lru } from "../../tools/lru";
import { accumulate, buildPostings, inverseDocumentFrequency, type Postings } from "./postings";
import { DEFAULT_SETTINGS, type FieldName, type LocalRankingSettings } from "./settings";
import { isStopword, segmentCompound, splitWords, stem } from "./tokenise";
import { selectTopK } from "./topK";

export interface LocalIndex extends ToolRanker {
  readonly size: number;
  /** Ranked tools for the conversation: scores > 0 only, best first, ties broken by name. */
  rank(messages: ConversationMessage[], k: number): RankedTool[];
  /**
   * Like `rank`, over `candidates` only: those identical to an indexed tool are looked up in the
   * index; any other (not indexed, or with other text, e.g. rewritten by an override) is scored
   * the same way against the index's statistics. So one index over a whole catalog serves every
   * model and agent, each ranking only what it may see.
   */
  rankAmong(candidates: readonly SelectorCandidate[], messages: ConversationMessage[], k: number): RankedTool[];
}

const FIELD_NAMES: readonly FieldName[] = ["name", "summary", "description", "tags", "parameters"];

/** Run-together words already segmented during one index build: the same words recur across a catalog. */
type SegmentMemo = Map<string, string[]>;

/** Stemmed content terms of one field's words; run-together words are also split into known words. */
function fieldTerms(words: readonly string[], vocabulary: ReadonlySet<string>, segments: SegmentMemo): string[] {
  const terms: string[] = [];
  for (const word of words) {
    if (isStopword(word)) continue;
    terms.push(stem(word));
    let pieces = segments.get(word);
    if (pieces === undefined) segments.set(word, (pieces = segmentCompound(word, vocabulary)));
    for (const piece of pieces) {
      if (!isStopword(piece)) terms.push(stem(piece));
    }
  }
  return terms;
}

function fieldTexts(candidate: SelectorCandidate): Record<FieldName, string> {
  return {
    name: candidate.name,
    summary: candidate.summary,
    description: candidate.description ?? "",
    tags: (candidate.tags ?? []).join(" "),
    parameters: (candidate.parameterNames ?? []).join(" "),
  };
}

/** Each field's words, split once per build: they make both the vocabulary and the terms. */
function fieldWords(candidate: SelectorCandidate): string[][] {
  const texts = fieldTexts(candidate);
  return FIELD_NAMES.map((field) => splitWords(texts[field]));
}

const PROSE_FIELDS = [FIELD_NAMES.indexOf("summary"), FIELD_NAMES.indexOf("description"), FIELD_NAMES.indexOf("tags")];

/** Words that run-together names may be made of: the catalog's own prose (summaries, descriptions, tags) plus the lexicon. */
function segmentationVocabulary(documents: readonly string[][][]): Set<string> {
  const vocabulary = new Set<string>();
  const add = (word: string): void => {
    if (word.length < 3 || isStopword(word)) return;
    vocabulary.add(word);
    // Names use the singular more often than prose does ("competitorads" beside "competitors").
    if (word.length > 4 && word.endsWith("s") && !word.endsWith("ss")) vocabulary.add(word.slice(0, -1));
  };
  for (const fields of documents) {
    for (const field of PROSE_FIELDS) for (const word of fields[field]) add(word);
  }
  for (const word of lexiconWords()) add(word);
  return vocabulary;
}

/** Average number of terms per field over the documents. */
type FieldLengths = readonly number[];

/**
 * One document's BM25F pseudo-frequencies: each term's frequencies are length-normalised per
 * field and weighted before they are summed.
 */
function pseudoFrequencies(fields: readonly string[][], averageLength: FieldLengths, settings: LocalRankingSettings): Map<string, number> {
  const frequencies = new Map<string, number>();
  FIELD_NAMES.forEach((fieldName, field) => {
    const terms = fields[field];
    if (terms.length === 0) return;
    const { weight, b } = settings.fields[fieldName];
    const lengthNorm = 1 - b + (b * terms.length) / Math.max(averageLength[field], 1e-9);
    const increment = weight / lengthNorm;
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + increment);
  });
  return frequencies;
}

/** A single saturation of the summed pseudo-frequency, so a term repeated across fields cannot score as several terms. */
function saturatedWeight(frequency: number, documentCount: number, documentFrequency: number, k1: number): number {
  const idf = inverseDocumentFrequency(documentCount, documentFrequency);
  return (idf * frequency * (k1 + 1)) / (frequency + k1);
}

function documentFields(words: readonly string[][], vocabulary: ReadonlySet<string>, segments: SegmentMemo): string[][] {
  return words.map((fieldWordList) => fieldTerms(fieldWordList, vocabulary, segments));
}

interface FieldedPostings {
  postings: Postings;
  vocabulary: ReadonlySet<string>;
  averageLength: FieldLengths;
}

/** BM25F postings over the candidates, with what scoring another document against them needs. */
function buildFieldedPostings(candidates: readonly SelectorCandidate[], settings: LocalRankingSettings): FieldedPostings {
  const words = candidates.map(fieldWords);
  const vocabulary = segmentationVocabulary(words);
  const segments: SegmentMemo = new Map();
  const documents = words.map((fields) => documentFields(fields, vocabulary, segments));
  const averageLength = FIELD_NAMES.map(
    (_, field) => documents.reduce((sum, fields) => sum + fields[field].length, 0) / Math.max(1, documents.length),
  );
  const frequencies = documents.map((fields) => pseudoFrequencies(fields, averageLength, settings));
  const postings = buildPostings(frequencies, (frequency, _doc, documentFrequency) =>
    saturatedWeight(frequency, candidates.length, documentFrequency, settings.k1),
  );
  return { postings, vocabulary, averageLength };
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => {
  if (a === b) return true;
  const left = a ?? [];
  const right = b ?? [];
  return left.length === right.length && left.every((item, index) => item === right[index]);
};

/** Same text in every field the index reads (the name is matched before). */
function sameText(indexed: SelectorCandidate, candidate: SelectorCandidate): boolean {
  return (
    indexed.summary === candidate.summary &&
    (indexed.description ?? "") === (candidate.description ?? "") &&
    sameList(indexed.tags, candidate.tags) &&
    sameList(indexed.parameterNames, candidate.parameterNames)
  );
}

/** A candidate outside the index: its term weights, computed against the index's statistics. */
interface ExtraDocument {
  name: string;
  weights: ReadonlyMap<string, number>;
}

/** Which indexed documents a candidate set allows, and the candidates the index does not hold as they are. */
interface Restriction {
  allowed: Uint8Array;
  extras: readonly ExtraDocument[];
}

/** Rewritten or unknown candidates remembered per index, by their text. */
const EXTRA_DOCUMENTS_PER_INDEX = 4_096;

/**
 * How much each message speaks for the current need: by role, and halved (by default) for every
 * user turn between it and the end of the conversation.
 */
function messageWeights(messages: readonly ConversationMessage[], settings: LocalRankingSettings): number[] {
  const weights = new Array<number>(messages.length);
  let decay = 1;
  let seenUserTurn = false;
  for (let index = messages.length - 1; index >= 0; index--) {
    const { role } = messages[index];
    if (role === "user") {
      if (seenUserTurn) decay *= settings.conversation.turnDecay;
      seenUserTurn = true;
    }
    weights[index] = settings.conversation[role] * decay;
  }
  return weights;
}

class FieldedIndex implements LocalIndex {
  private readonly names: readonly string[];
  private readonly documents: readonly SelectorCandidate[];
  private readonly byName: ReadonlyMap<string, number>;
  private readonly postings: Postings;
  private readonly vocabulary: ReadonlySet<string>;
  private readonly averageLength: FieldLengths;
  // Caches of derived data only; the index itself never changes.
  private readonly restrictions = new WeakMap<readonly SelectorCandidate[], Restriction>();
  private readonly extraDocuments = new Lru<string, ExtraDocument>({ maxEntries: EXTRA_DOCUMENTS_PER_INDEX });

  constructor(
    candidates: readonly SelectorCandidate[],
    fielded: FieldedPostings,
    private readonly related: RelatedTerms,
    private readonly genericStems: ReadonlySet<string>,
    private readonly settings: LocalRankingSettings,
  ) {
    this.names = Object.freeze(candidates.map((candidate) => candidate.name));
    this.documents = Object.freeze([...candidates]);
    const byName = new Map<string, number>();
    candidates.forEach((candidate, doc) => {
      if (!byName.has(candidate.name)) byName.set(candidate.name, doc);
    });
    this.byName = byName;
    this.postings = fielded.postings;
    this.vocabulary = fielded.vocabulary;
    this.averageLength = fielded.averageLength;
    Object.freeze(this);
  }

  get size(): number {
    return this.names.length;
  }

  rank(messages: ConversationMessage[], k: number): RankedTool[] {
    if (!(k >= 1) || this.names.length === 0) return [];
    const { scores, touched, touchedCount } = accumulate(this.postings, this.termIdWeights(this.queryWeights(messages)), this.names.length);
    return selectTopK(scores, touched, touchedCount, this.names, k).map((doc) => ({
      name: this.names[doc],
      score: scores[doc],
    }));
  }

  rankAmong(candidates: readonly SelectorCandidate[], messages: ConversationMessage[], k: number): RankedTool[] {
    if (!(k >= 1) || candidates.length === 0) return [];
    const { allowed, extras } = this.restrictTo(candidates);
    const query = this.queryWeights(messages);
    const { scores, touched, touchedCount } = accumulate(this.postings, this.termIdWeights(query), this.names.length);
    let kept = 0;
    for (let index = 0; index < touchedCount; index++) {
      const doc = touched[index];
      if (allowed[doc] === 1) touched[kept++] = doc;
    }
    const ranked = selectTopK(scores, touched, kept, this.names, k).map((doc) => ({ name: this.names[doc], score: scores[doc] }));
    if (extras.length === 0) return ranked;
    for (const extra of extras) {
      let score = 0;
      for (const [term, weight] of query) {
        const documentWeight = extra.weights.get(term);
        if (documentWeight !== undefined) score += weight * documentWeight;
      }
      if (score > 0) ranked.push({ name: extra.name, score });
    }
    // The order selectTopK gives: best score first, ties by name.
    return ranked.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, k);
  }

  /** Remembered for frozen candidate arrays, which the preselection and ToolSearch reuse per tool list. */
  private restrictTo(candidates: readonly SelectorCandidate[]): Restriction {
    const known = this.restrictions.get(candidates);
    if (known !== undefined) return known;
    const allowed = new Uint8Array(this.names.length);
    const extras: ExtraDocument[] = [];
    for (const candidate of candidates) {
      const doc = this.byName.get(candidate.name);
      if (doc !== undefined && sameText(this.documents[doc], candidate)) allowed[doc] = 1;
      else extras.push(this.extraDocument(candidate));
    }
    const restriction = { allowed, extras };
    if (Object.isFrozen(candidates)) this.restrictions.set(candidates, restriction);
    return restriction;
  }

  private extraDocument(candidate: SelectorCandidate): ExtraDocument {
    const texts = fieldTexts(candidate);
    const key = [candidate.name, ...FIELD_NAMES.map((field) => texts[field])].join("\u0000");
    return this.extraDocuments.getOrCreate(key, () => {
      const frequencies = pseudoFrequencies(documentFields(fieldWords(candidate), this.vocabulary, new Map()), this.averageLength, this.settings);
      const weights = new Map<string, number>();
      for (const [term, frequency] of frequencies) {
        const termId = this.postings.termIds.get(term);
        const documentFrequency = termId === undefined ? 0 : this.postings.offsets[termId + 1] - this.postings.offsets[termId];
        weights.set(term, saturatedWeight(frequency, this.names.length, documentFrequency, this.settings.k1));
      }
      return { name: candidate.name, weights };
    });
  }

  /** Term → weight: each message's terms at the message's weight, then lexicon expansion. */
  private queryWeights(messages: readonly ConversationMessage[]): Map<string, number> {
    const original = new Map<string, number>();
    const weights = messageWeights(messages, this.settings);
    messages.forEach((message, index) => {
      if (weights[index] <= 0) return;
      for (const word of new Set(splitWords(message.content))) {
        if (isStopword(word)) continue;
        const term = stem(word);
        const weight = weights[index] * (this.genericStems.has(term) ? this.settings.genericWordWeight : 1);
        original.set(term, (original.get(term) ?? 0) + weight);
      }
    });

    const combined = new Map<string, number>(original);
    for (const [term, weight] of original) {
      const relatedTerms = this.related.get(term);
      if (!relatedTerms) continue;
      for (const [relatedTerm, strength] of relatedTerms) {
        const expandedWeight = weight * strength;
        if ((combined.get(relatedTerm) ?? 0) < expandedWeight) combined.set(relatedTerm, expandedWeight);
      }
    }
    return combined;
  }

  /** The query terms the index knows, by term id. */
  private termIdWeights(query: ReadonlyMap<string, number>): Map<number, number> {
    const byTermId = new Map<number, number>();
    for (const [term, weight] of query) {
      const termId = this.postings.termIds.get(term);
      if (termId !== undefined) byTermId.set(termId, weight);
    }
    return byTermId;
  }
}

/**
 * Builds the immutable local index over a catalog: BM25F postings over name, summary,
 * description, tags and parameter names, plus the lexicon used to expand queries.
 */
export function createLocalIndex(
  candidates: SelectorCandidate[],
  settings: LocalRankingSettings = DEFAULT_SETTINGS,
): LocalIndex {
  return new FieldedIndex(
    candidates,
    buildFieldedPostings(candidates, settings),
    buildRelatedTerms(settings.expansion),
    genericRequestStems(),
    settings,
  );
}
