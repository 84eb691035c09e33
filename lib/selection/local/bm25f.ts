import type { ConversationMessage, RankedTool, SelectorCandidate, ToolRanker } from "../types";
import { buildRelatedTerms, genericRequestStems, lexiconWords, type RelatedTerms } from "./expand";
import { accumulate, buildPostings, inverseDocumentFrequency, type Postings } from "./postings";
import { DEFAULT_SETTINGS, type FieldName, type LocalRankingSettings } from "./settings";
import { isStopword, segmentCompound, splitWords, stem } from "./tokenise";
import { selectTopK } from "./topK";

export interface LocalIndex extends ToolRanker {
  readonly size: number;
  /** Ranked tools for the conversation: scores > 0 only, best first, ties broken by name. */
  rank(messages: ConversationMessage[], k: number): RankedTool[];
}

const FIELD_NAMES: readonly FieldName[] = ["name", "summary", "description", "tags", "parameters"];

/** Stemmed content terms of one field; run-together words are also split into known words. */
function fieldTerms(text: string, vocabulary: ReadonlySet<string>): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    if (isStopword(word)) continue;
    terms.push(stem(word));
    for (const piece of segmentCompound(word, vocabulary)) {
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

/** Words that run-together names may be made of: the catalog's own prose plus the lexicon. */
function segmentationVocabulary(candidates: readonly SelectorCandidate[]): Set<string> {
  const vocabulary = new Set<string>();
  const add = (word: string): void => {
    if (word.length < 3 || isStopword(word)) return;
    vocabulary.add(word);
    // Names use the singular more often than prose does ("competitorads" beside "competitors").
    if (word.length > 4 && word.endsWith("s") && !word.endsWith("ss")) vocabulary.add(word.slice(0, -1));
  };
  for (const candidate of candidates) {
    for (const text of [candidate.summary, candidate.description ?? "", ...(candidate.tags ?? [])]) {
      for (const word of splitWords(text)) add(word);
    }
  }
  for (const word of lexiconWords()) add(word);
  return vocabulary;
}

/**
 * BM25F: each term's frequencies are length-normalised per field, weighted and summed before a
 * single saturation, so a term repeated across fields cannot score as if it were several terms.
 */
function buildFieldedPostings(candidates: readonly SelectorCandidate[], settings: LocalRankingSettings): Postings {
  const vocabulary = segmentationVocabulary(candidates);
  const documents = candidates.map((candidate) => {
    const texts = fieldTexts(candidate);
    return FIELD_NAMES.map((field) => fieldTerms(texts[field], vocabulary));
  });
  const averageLength = FIELD_NAMES.map(
    (_, field) => documents.reduce((sum, fields) => sum + fields[field].length, 0) / Math.max(1, documents.length),
  );

  const pseudoFrequencies = documents.map((fields) => {
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
  });

  const { k1 } = settings;
  return buildPostings(pseudoFrequencies, (frequency, _doc, documentFrequency) => {
    const idf = inverseDocumentFrequency(candidates.length, documentFrequency);
    return (idf * frequency * (k1 + 1)) / (frequency + k1);
  });
}

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

  constructor(
    candidates: readonly SelectorCandidate[],
    private readonly postings: Postings,
    private readonly related: RelatedTerms,
    private readonly genericStems: ReadonlySet<string>,
    private readonly settings: LocalRankingSettings,
  ) {
    this.names = Object.freeze(candidates.map((candidate) => candidate.name));
    Object.freeze(this);
  }

  get size(): number {
    return this.names.length;
  }

  rank(messages: ConversationMessage[], k: number): RankedTool[] {
    if (!(k >= 1) || this.names.length === 0) return [];
    const queryWeights = this.queryWeights(messages);
    const { scores, touched, touchedCount } = accumulate(this.postings, queryWeights, this.names.length);
    return selectTopK(scores, touched, touchedCount, this.names, k).map((doc) => ({
      name: this.names[doc],
      score: scores[doc],
    }));
  }

  /** Term id → weight: each message's terms at the message's weight, then lexicon expansion. */
  private queryWeights(messages: readonly ConversationMessage[]): Map<number, number> {
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

    const byTermId = new Map<number, number>();
    for (const [term, weight] of combined) {
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
