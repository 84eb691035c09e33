import type { ConversationMessage, RankedTool, SelectorCandidate, ToolRanker } from "../types";
import { Lru } from "../../tools/lru";
import { type Accumulated, FieldedPostings } from "./fielded-postings";
import { inverseDocumentFrequency } from "./postings";
import { candidateLineageOf } from "../candidates";
import { type CorpusRevision, analyseCorpus, documentWithTextOf, reviseCorpus, sharedDocuments } from "./revision";
import type { Segment } from "./segment";
import { breadthFactor, type FieldNormaliser, saturated } from "./weights";
import { DEFAULT_SETTINGS, type LocalRankingSettings } from "./settings";
import { isGenericRequestStem, isStopword, splitWords, stem } from "./tokenise";
import { selectTopK } from "./topK";
import { splitIntents } from "./intents";
import { coverIntents, type PoolEntry } from "./coverage";
import { documentTerms, FIELD_NAMES, fieldTexts } from "./analysis";

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

/**
 * One document's BM25F pseudo-frequencies: each term's frequencies are length-normalised per
 * field and weighted before they are summed.
 */
function pseudoFrequencies(
  fields: readonly string[][],
  normaliser: FieldNormaliser,
  breadthLimit: number,
  settings: LocalRankingSettings,
): Map<string, number> {
  const breadth = breadthFactor(new Set(fields.flat()).size, breadthLimit, settings);
  const frequencies = new Map<string, number>();
  fields.forEach((terms, field) => {
    if (terms.length === 0) return;
    const increment = normaliser.increment(field, terms.length, breadth);
    for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + increment);
  });
  return frequencies;
}

/** A single saturation of the summed pseudo-frequency, so a term repeated across fields cannot score as several terms. */
function saturatedWeight(frequency: number, documentCount: number, documentFrequency: number, k1: number): number {
  return saturated(frequency, inverseDocumentFrequency(documentCount, documentFrequency), k1);
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

/** Per frozen candidate array, its documents in the latest revision it was matched to, and that revision's segments. */
const matchings = new WeakMap<readonly SelectorCandidate[], { segments: readonly Segment[]; docs: Int32Array }>();

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
  /** Each document's tool name, gone documents' included (they are never touched). */
  private readonly names: readonly string[];
  // Caches of derived data only; the index itself never changes.
  private readonly restrictions = new WeakMap<readonly SelectorCandidate[], Restriction>();
  private readonly extraDocuments = new Lru<string, ExtraDocument>({ maxEntries: EXTRA_DOCUMENTS_PER_INDEX });

  constructor(
    /** What the index was built from, kept so that the catalog's next revision is read from it (`createLocalIndex`'s `earlier`). */
    readonly revision: CorpusRevision,
    private readonly fielded: FieldedPostings,
    readonly settings: LocalRankingSettings,
  ) {
    this.names = revision.names;
    Object.freeze(this);
  }

  get size(): number {
    return this.fielded.documentCount;
  }

  documentFrequency(term: string): number {
    return this.fielded.documentFrequency(term);
  }

  rank(messages: ConversationMessage[], k: number): RankedTool[] {
    if (!(k >= 1) || this.size === 0) return [];
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
      ...this.fielded.accumulate(query.terms),
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
    const breadth = this.fielded.breadth;
    let bestScore = 0;
    for (let index = 0; index < touchedCount; index++) bestScore = Math.max(bestScore, scores[touched[index]]);
    const broadFloor = this.settings.breadth.floor * bestScore;
    let kept = 0;
    for (let index = 0; index < touchedCount; index++) {
      const doc = touched[index];
      if ((allowed === undefined || allowed[doc] === 1) && (breadth[doc] === 1 || scores[doc] >= broadFloor)) touched[kept++] = doc;
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
  private feedbackQuery(query: Query, list: Accumulated, allowed: Uint8Array | undefined): Query | undefined {
    const { documents, terms: termCount, weight } = this.settings.feedback;
    let candidates = list.touchedCount;
    const touched = list.touched.slice(0, candidates);
    if (allowed !== undefined) {
      candidates = 0;
      for (const doc of touched) if (allowed[doc] === 1) touched[candidates++] = doc;
    }
    const top = selectTopK(list.scores, touched, candidates, this.names, documents);
    if (top.length === 0) return undefined;
    // By term, in the order of the top tools and of a fresh build's term numbering (`FreshTermOrder`),
    // so sums and ties in the sort below fall the same way in every revision of the catalog.
    const termScores = new Map<string, number>();
    const breadth = this.fielded.breadth;
    for (const doc of top) {
      const { terms, weights } = this.fielded.documentTerms(doc);
      let total = 0;
      for (const weight of weights) total += weight;
      // A broad tool's words say as little about the request here as in its score; its name would
      // otherwise be its strongest term, and bring it back up.
      const share = breadth[doc] / total;
      terms.forEach((term, index) => {
        termScores.set(term, (termScores.get(term) ?? 0) + weights[index] * share);
      });
    }
    const chosen = [...termScores]
      .filter(([term]) => !query.terms.has(term))
      .sort((a, b) => b[1] - a[1])
      .slice(0, termCount);
    if (chosen.length === 0) return undefined;
    const strongest = chosen[0][1];
    const terms = new Map(query.terms);
    for (const [term, termScore] of chosen) terms.set(term, (weight * termScore) / strongest);
    return { terms, weight: query.weight };
  }

  /** Remembered for frozen candidate arrays, which the preselection and ToolSearch reuse per tool list. */
  private restrictTo(candidates: readonly SelectorCandidate[]): Restriction {
    const known = this.restrictions.get(candidates);
    if (known !== undefined) return known;
    const docs = this.documentsOf(candidates);
    const allowed = new Uint8Array(this.names.length);
    const extras: ExtraDocument[] = [];
    docs.forEach((doc, position) => {
      if (doc !== -1) allowed[doc] = 1;
      else extras.push(this.extraDocument(candidates[position]));
    });
    const restriction = { allowed, extras };
    if (Object.isFrozen(candidates)) {
      this.restrictions.set(candidates, restriction);
      matchings.set(candidates, { segments: this.revision.segments, docs });
    }
    return restriction;
  }

  /**
   * Each candidate's document, or -1 for one the index does not hold as it is. An array matched
   * before, or made from one that was (`candidateLineageOf`), keeps the earlier's documents that are still live in the
   * segments this revision shares with the one they were found in: only the rest are looked for.
   */
  private documentsOf(candidates: readonly SelectorCandidate[]): Int32Array {
    const docs = new Int32Array(candidates.length);
    // The same array matched to an earlier revision is its own lineage, with no edits.
    const lineage = matchings.has(candidates) ? { earlier: candidates, edits: [] } : candidateLineageOf(candidates);
    const earlier = lineage && matchings.get(lineage.earlier);
    if (earlier === undefined) {
      candidates.forEach((candidate, position) => {
        docs[position] = this.documentOf(candidate, position);
      });
      return docs;
    }
    const shared = sharedDocuments(this.revision, earlier.segments);
    const { dead } = this.revision;
    let [from, to] = [0, 0];
    const keep = (end: number) => {
      for (; from < end; from++, to++) {
        const doc = earlier.docs[from];
        docs[to] = doc !== -1 && doc < shared && dead[doc] === 0 ? doc : this.documentOf(candidates[to], to);
      }
    };
    for (const edit of lineage!.edits) {
      keep(edit.from);
      for (const candidate of edit.inserted) docs[to] = this.documentOf(candidate, to++);
      from += edit.removed;
    }
    keep(earlier.docs.length);
    return docs;
  }

  /** The index's own tools at their places are known at once; others by name and text, or as matched before. */
  private documentOf(candidate: SelectorCandidate, position: number): number {
    const { revision } = this;
    return revision.candidates[position] === candidate ? revision.locations[position] : documentWithTextOf(revision, candidate);
  }

  private extraDocument(candidate: SelectorCandidate): ExtraDocument {
    const texts = fieldTexts(candidate);
    const key = [candidate.name, ...FIELD_NAMES.map((field) => texts[field])].join("\u0000");
    return this.extraDocuments.getOrCreate(key, () => {
      const { normaliser, breadthLimit, documentCount } = this.fielded;
      const terms = documentTerms(candidate, this.revision.vocabulary, this.revision.prefixes);
      const frequencies = pseudoFrequencies(terms, normaliser, breadthLimit, this.settings);
      const weights = new Map<string, number>();
      for (const [term, frequency] of frequencies) {
        weights.set(term, saturatedWeight(frequency, documentCount, this.fielded.documentFrequency(term), this.settings.k1));
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
  const revision = earlier instanceof FieldedIndex && earlier.settings === settings ? reviseCorpus(earlier.revision, candidates) : analyseCorpus(candidates);
  return new FieldedIndex(revision, new FieldedPostings(revision, settings), settings);
}
