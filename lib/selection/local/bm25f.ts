import type { ConversationMessage, RankedTool, SelectorCandidate, ToolRanker } from "../types";
import { Lru } from "../../tools/lru";
import { accumulate, forwardIndex, inverseDocumentFrequency, type ForwardIndex, type Postings } from "./postings";
import { DEFAULT_SETTINGS, type LocalRankingSettings } from "./settings";
import { isGenericRequestStem, isStopword, splitWords, stem } from "./tokenise";
import { selectTopK } from "./topK";
import { splitIntents } from "./intents";
import { coverIntents, type PoolEntry } from "./coverage";
import { analyseCorpus, type CorpusAnalysis, documentTerms, FIELD_NAMES, fieldTexts, NAME_FIELD, reanalyseCorpus, SERVICE_FIELD, sameText } from "./analysis";

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
  /** How many indexed tools have the (stemmed) term in their text. */
  documentFrequency(term: string): number;
}

/** Average number of terms per field over the documents. */
type FieldLengths = readonly number[];

/**
 * The scale of a tool's weights for the breadth of its vocabulary (see `LocalRankingSettings.breadth`);
 * `limit` is the number of distinct terms left untouched.
 */
function breadthFactor(distinctTerms: number, limit: number, settings: LocalRankingSettings): number {
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
function fieldIncrement(field: number, length: number, averageLength: FieldLengths, breadth: number, settings: LocalRankingSettings): number {
  const { weight, b } = settings.fields[FIELD_NAMES[field]];
  const scale = field === NAME_FIELD || field === SERVICE_FIELD ? 1 : breadth;
  return (scale * weight) / (1 - b + (b * length) / Math.max(averageLength[field], 1e-9));
}

/**
 * One document's BM25F pseudo-frequencies: each term's frequencies are length-normalised per
 * field and weighted before they are summed.
 */
function pseudoFrequencies(
  fields: readonly string[][],
  averageLength: FieldLengths,
  breadthLimit: number,
  settings: LocalRankingSettings,
): Map<string, number> {
  const breadth = breadthFactor(new Set(fields.flat()).size, breadthLimit, settings);
  const frequencies = new Map<string, number>();
  fields.forEach((terms, field) => {
    if (terms.length === 0) return;
    const increment = fieldIncrement(field, terms.length, averageLength, breadth, settings);
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + increment);
  });
  return frequencies;
}

/** A single saturation of the summed pseudo-frequency, so a term repeated across fields cannot score as several terms. */
function saturatedWeight(frequency: number, documentCount: number, documentFrequency: number, k1: number): number {
  return saturated(frequency, inverseDocumentFrequency(documentCount, documentFrequency), k1);
}

function saturated(frequency: number, idf: number, k1: number): number {
  return (idf * frequency * (k1 + 1)) / (frequency + k1);
}

interface FieldedPostings {
  postings: Postings;
  forward: ForwardIndex;
  vocabulary: ReadonlySet<string>;
  averageLength: FieldLengths;
  prefixes: ReadonlySet<string>;
  breadthLimit: number;
  /** Each document's `breadthFactor`. */
  breadth: Float32Array;
}

/**
 * BM25F postings over an analysed corpus (lib/selection/local/analysis.ts: each document's terms as
 * ids, in field order), with what scoring another document against them needs: each document's
 * pseudo-frequencies, summed in the same order as `pseudoFrequencies`, as posting weights.
 */
function buildFieldedPostings(analysis: CorpusAnalysis, settings: LocalRankingSettings): FieldedPostings {
  const fieldCount = FIELD_NAMES.length;
  const { candidates, occurrences, documentStarts, fieldLengths } = analysis;
  const termCount = analysis.termNames.length;
  const documentFrequency = new Uint32Array(termCount);
  const distinctTerms = new Uint32Array(candidates.length);
  const lastDocument = new Int32Array(termCount).fill(-1);
  for (let doc = 0; doc < candidates.length; doc++) {
    for (let at = documentStarts[doc]; at < documentStarts[doc + 1]; at++) {
      const id = occurrences[at];
      if (lastDocument[id] !== doc) {
        lastDocument[id] = doc;
        documentFrequency[id]++;
        distinctTerms[doc]++;
      }
    }
  }
  const totalLengths = new Array<number>(fieldCount).fill(0);
  for (let doc = 0; doc < candidates.length; doc++)
    for (let field = 0; field < fieldCount; field++) totalLengths[field] += fieldLengths[doc * fieldCount + field];
  const averageLength = totalLengths.map((total) => total / Math.max(1, candidates.length));
  const limit = breadthLimit(distinctTerms, settings);
  const breadth = new Float32Array(candidates.length);

  const offsets = new Uint32Array(termCount + 1);
  for (let id = 0; id < termCount; id++) offsets[id + 1] = offsets[id] + documentFrequency[id];
  const docs = new Uint32Array(offsets[termCount]);
  const weights = new Float32Array(docs.length);
  const cursor = offsets.slice(0, termCount);
  const frequency = new Float64Array(termCount);
  const seenIn = new Int32Array(termCount).fill(-1);
  // Once per term, not per posting.
  const idf = new Float64Array(termCount);
  for (let id = 0; id < termCount; id++) idf[id] = inverseDocumentFrequency(candidates.length, documentFrequency[id]);
  const documentTerms: number[] = [];
  for (let doc = 0; doc < candidates.length; doc++) {
    let at = documentStarts[doc];
    breadth[doc] = breadthFactor(distinctTerms[doc], limit, settings);
    for (let field = 0; field < fieldCount; field++) {
      const length = fieldLengths[doc * fieldCount + field];
      if (length === 0) continue;
      const increment = fieldIncrement(field, length, averageLength, breadth[doc], settings);
      for (const end = at + length; at < end; at++) {
        const id = occurrences[at];
        if (seenIn[id] !== doc) {
          seenIn[id] = doc;
          documentTerms.push(id);
        }
        frequency[id] += increment;
      }
    }
    for (const id of documentTerms) {
      const slot = cursor[id]++;
      docs[slot] = doc;
      weights[slot] = saturated(frequency[id], idf[id], settings.k1);
      frequency[id] = 0;
    }
    documentTerms.length = 0;
  }
  const postings: Postings = { termIds: analysis.termIds, offsets, docs, weights };
  return {
    postings,
    forward: forwardIndex(postings, candidates.length),
    vocabulary: analysis.vocabulary,
    averageLength,
    prefixes: analysis.prefixes,
    breadthLimit: limit,
    breadth,
  };
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

/** One query of a request: term weights, and how much its ranking counts in the fused one. */
interface Query {
  terms: ReadonlyMap<string, number>;
  weight: number;
}

function extraScore(extra: ExtraDocument, terms: ReadonlyMap<string, number>): number {
  let score = 0;
  for (const [term, weight] of terms) {
    const documentWeight = extra.weights.get(term);
    if (documentWeight !== undefined) score += weight * documentWeight;
  }
  return score;
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
  private readonly forward: ForwardIndex;
  private readonly termNames: readonly string[];
  private readonly vocabulary: ReadonlySet<string>;
  private readonly averageLength: FieldLengths;
  private readonly prefixes: ReadonlySet<string>;
  private readonly breadthLimit: number;
  private readonly breadth: Float32Array;
  // Caches of derived data only; the index itself never changes.
  private readonly restrictions = new WeakMap<readonly SelectorCandidate[], Restriction>();
  private readonly extraDocuments = new Lru<string, ExtraDocument>({ maxEntries: EXTRA_DOCUMENTS_PER_INDEX });

  constructor(
    /** What the index was built from, kept so that the catalog's next revision is read from it (`createLocalIndex`'s `earlier`). */
    readonly analysis: CorpusAnalysis,
    fielded: FieldedPostings,
    readonly settings: LocalRankingSettings,
  ) {
    const { candidates } = analysis;
    this.names = Object.freeze(candidates.map((candidate) => candidate.name));
    this.documents = Object.freeze([...candidates]);
    const byName = new Map<string, number>();
    candidates.forEach((candidate, doc) => {
      if (!byName.has(candidate.name)) byName.set(candidate.name, doc);
    });
    this.byName = byName;
    this.termNames = analysis.termNames;
    this.postings = fielded.postings;
    this.forward = fielded.forward;
    this.vocabulary = fielded.vocabulary;
    this.averageLength = fielded.averageLength;
    this.prefixes = fielded.prefixes;
    this.breadthLimit = fielded.breadthLimit;
    this.breadth = fielded.breadth;
    Object.freeze(this);
  }

  get size(): number {
    return this.names.length;
  }

  documentFrequency(term: string): number {
    const termId = this.postings.termIds.get(term);
    return termId === undefined ? 0 : this.postings.offsets[termId + 1] - this.postings.offsets[termId];
  }

  rank(messages: ConversationMessage[], k: number): RankedTool[] {
    if (!(k >= 1) || this.names.length === 0) return [];
    return this.rankQueries(this.queries(messages), undefined, [], k);
  }

  rankAmong(candidates: readonly SelectorCandidate[], messages: ConversationMessage[], k: number): RankedTool[] {
    if (!(k >= 1) || candidates.length === 0) return [];
    const { allowed, extras } = this.restrictTo(candidates);
    return this.rankQueries(this.queries(messages), allowed, extras, k);
  }

  /**
   * Scores every query, then fuses: the whole conversation's ranking plus each intent's, the
   * intent's rescaled so that its best allowed tool scores like the whole query's best. So a
   * request for several tasks gets the best tools of each task near the top, not only those of the
   * task with the rarest words.
   */
  private rankQueries(queries: readonly Query[], allowed: Uint8Array | undefined, extras: readonly ExtraDocument[], k: number): RankedTool[] {
    const score = (query: Query) => ({
      ...accumulate(this.postings, this.termIdWeights(query.terms), this.names.length),
      extraScores: extras.map((extra) => extraScore(extra, query.terms)),
    });
    const lists = queries.map(score);
    if (this.settings.feedback.weight > 0) {
      const feedback = this.feedbackQuery(queries[0], lists[0], allowed);
      if (feedback !== undefined) lists[0] = score(feedback);
    }
    const [whole, ...intents] = lists;
    const best = (list: (typeof lists)[number]): number => {
      let max = 0;
      for (let index = 0; index < list.touchedCount; index++) {
        const doc = list.touched[index];
        if (allowed === undefined || allowed[doc] === 1) max = Math.max(max, list.scores[doc]);
      }
      for (const score of list.extraScores) max = Math.max(max, score);
      return max;
    };
    const scores = whole.scores;
    const touched = whole.touched;
    let touchedCount = whole.touchedCount;
    const extraScores = [...whole.extraScores];
    if (intents.length > 0) {
      const wholeBest = best(whole);
      const seen = new Uint8Array(this.names.length);
      for (let index = 0; index < touchedCount; index++) seen[touched[index]] = 1;
      intents.forEach((list, intent) => {
        const intentBest = best(list);
        if (intentBest <= 0) return;
        const factor = (queries[intent + 1].weight * (wholeBest > 0 ? wholeBest : intentBest)) / intentBest;
        for (let index = 0; index < list.touchedCount; index++) {
          const doc = list.touched[index];
          scores[doc] += factor * list.scores[doc];
          if (seen[doc] === 0) {
            seen[doc] = 1;
            touched[touchedCount++] = doc;
          }
        }
        list.extraScores.forEach((score, extra) => {
          extraScores[extra] += factor * score;
        });
      });
    }
    // A broad tool (breadthFactor < 1) enters a ranking only with a real share of the best score:
    // with its words everywhere, a sliver of a score is chance, and would fill the weak end of a short list.
    let bestScore = 0;
    for (let index = 0; index < touchedCount; index++) bestScore = Math.max(bestScore, scores[touched[index]]);
    const broadFloor = this.settings.breadth.floor * bestScore;
    let kept = 0;
    for (let index = 0; index < touchedCount; index++) {
      const doc = touched[index];
      if ((allowed === undefined || allowed[doc] === 1) && (this.breadth[doc] === 1 || scores[doc] >= broadFloor)) touched[kept++] = doc;
    }
    const cover = intents.length > 0 && this.settings.coverage.weight > 0;
    const poolSize = cover ? Math.max(k, this.settings.coverage.pool) : k;
    const pool: PoolEntry[] = selectTopK(scores, touched, kept, this.names, poolSize).map((doc) => ({
      name: this.names[doc],
      score: scores[doc],
      intentScores: intents.map((list) => list.scores[doc]),
    }));
    extras.forEach((extra, index) => {
      if (extraScores[index] > 0) pool.push({ name: extra.name, score: extraScores[index], intentScores: intents.map((list) => list.extraScores[index]) });
    });
    // The order selectTopK gives: best score first, ties by name.
    pool.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (pool.length > poolSize) pool.length = poolSize;
    if (!cover) return pool.slice(0, k).map(({ name, score }) => ({ name, score }));
    return coverIntents(pool, intents.map(best), k, this.settings.coverage.weight, this.settings.coverage.sharpness);
  }

  /**
   * Pseudo-relevance feedback: the query plus the most telling terms of its best few tools, each
   * by its share of those tools' weight, so tools described in the words of the best matches rise
   * even where the request used other words.
   */
  private feedbackQuery(
    query: Query,
    list: { scores: Float64Array; touched: Uint32Array; touchedCount: number },
    allowed: Uint8Array | undefined,
  ): Query | undefined {
    const { documents, terms: termCount, weight } = this.settings.feedback;
    let candidates = list.touchedCount;
    const touched = list.touched.slice(0, candidates);
    if (allowed !== undefined) {
      candidates = 0;
      for (const doc of touched) if (allowed[doc] === 1) touched[candidates++] = doc;
    }
    const top = selectTopK(list.scores, touched, candidates, this.names, documents);
    if (top.length === 0) return undefined;
    const termScores = new Map<number, number>();
    for (const doc of top) {
      const start = this.forward.offsets[doc];
      const end = this.forward.offsets[doc + 1];
      let total = 0;
      for (let slot = start; slot < end; slot++) total += this.forward.weights[slot];
      // A broad tool's words say as little about the request here as in its score; its name would
      // otherwise be its strongest term, and bring it back up.
      const share = this.breadth[doc] / total;
      for (let slot = start; slot < end; slot++) {
        const term = this.forward.terms[slot];
        termScores.set(term, (termScores.get(term) ?? 0) + this.forward.weights[slot] * share);
      }
    }
    const queryTermIds = new Set(this.termIdWeights(query.terms).keys());
    const chosen = [...termScores]
      .filter(([term]) => !queryTermIds.has(term))
      .sort((a, b) => b[1] - a[1])
      .slice(0, termCount);
    if (chosen.length === 0) return undefined;
    const strongest = chosen[0][1];
    const terms = new Map(query.terms);
    for (const [term, termScore] of chosen) terms.set(this.termNames[term], (weight * termScore) / strongest);
    return { terms, weight: query.weight };
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
      const frequencies = pseudoFrequencies(documentTerms(candidate, this.vocabulary, this.prefixes), this.averageLength, this.breadthLimit, this.settings);
      const weights = new Map<string, number>();
      for (const [term, frequency] of frequencies) {
        const termId = this.postings.termIds.get(term);
        const documentFrequency = termId === undefined ? 0 : this.postings.offsets[termId + 1] - this.postings.offsets[termId];
        weights.set(term, saturatedWeight(frequency, this.names.length, documentFrequency, this.settings.k1));
      }
      return { name: candidate.name, weights };
    });
  }

  /**
   * The whole conversation as one query and, when the latest request names several tasks, one
   * query per task: its own words, plus the rest of the conversation at the context weight.
   */
  private queries(messages: readonly ConversationMessage[]): Query[] {
    const conversation = this.wordWeights(messages, messageWeights(messages, this.settings));
    const whole: Query = { terms: this.stems(conversation), weight: 1 };
    const { weight, context } = this.settings.intents;
    const latest = messages.findLast((message) => message.role === "user");
    if (latest === undefined || weight <= 0) return [whole];
    const intents = splitIntents(latest.content);
    if (intents.length < 2) return [whole];
    return [
      whole,
      ...intents.map((intent) => {
        const own = this.wordWeights([{ role: "user", content: intent }], [1]);
        for (const [word, wordWeight] of conversation) own.set(word, (own.get(word) ?? 0) + context * wordWeight);
        return { terms: this.stems(own), weight };
      }),
    ];
  }

  /** Word → weight: each message's distinct content words at the message's weight, generic words less. */
  private wordWeights(messages: readonly ConversationMessage[], weights: readonly number[]): Map<string, number> {
    const words = new Map<string, number>();
    messages.forEach((message, index) => {
      if (weights[index] <= 0) return;
      for (const word of new Set(splitWords(message.content))) {
        if (isStopword(word)) continue;
        const weight = weights[index] * (isGenericRequestStem(stem(word)) ? this.settings.genericWordWeight : 1);
        words.set(word, (words.get(word) ?? 0) + weight);
      }
    });
    return words;
  }

  /** The words' stems, with their weights summed. */
  private stems(words: ReadonlyMap<string, number>): Map<string, number> {
    const terms = new Map<string, number>();
    for (const [word, weight] of words) {
      const term = stem(word);
      terms.set(term, (terms.get(term) ?? 0) + weight);
    }
    return terms;
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
 * description, tags, parameter names and parameter text, and each tool's terms for feedback.
 * Given the index of an earlier revision of the same catalog, only the tools whose text changed are
 * read again; the index is the same as one built afresh.
 */
export function createLocalIndex(
  candidates: readonly SelectorCandidate[],
  settings: LocalRankingSettings = DEFAULT_SETTINGS,
  earlier?: LocalIndex,
): LocalIndex {
  const analysis = earlier instanceof FieldedIndex && earlier.settings === settings ? reanalyseCorpus(earlier.analysis, candidates) : analyseCorpus(candidates);
  return new FieldedIndex(analysis, buildFieldedPostings(analysis, settings), settings);
}
