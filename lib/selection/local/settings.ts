export type FieldName = "name" | "summary" | "description" | "tags" | "parameters" | "parameterText" | "service";

interface FieldSettings {
  /** How much one occurrence in this field counts relative to the others. */
  weight: number;
  /** BM25 length normalisation for this field (0 = none, 1 = full). */
  b: number;
}

interface ConversationWeights {
  user: number;
  assistant: number;
  tool: number;
  system: number;
  /** Each earlier user turn multiplies the weight of its messages by this factor. */
  turnDecay: number;
}

interface IntentSettings {
  /** How much each task's own ranking counts, relative to the whole request's, when a request names several. */
  weight: number;
  /** Weight of the rest of the conversation's words in each task's query. */
  context: number;
}

interface FeedbackSettings {
  /** Best tools of the first pass whose terms are read. */
  documents: number;
  /** Terms added to the query. */
  terms: number;
  /** Query weight of the strongest added term (0 turns feedback off). */
  weight: number;
}

interface CoverageSettings {
  /** Weight of covering each intent of a multi-task request against the fused score (0 turns it off). */
  weight: number;
  /** Best fused tools among which the top k is chosen. */
  pool: number;
  /** Power of a tool's score for an intent relative to the intent's best, in its coverage of it (1 = linear). */
  sharpness: number;
}

/**
 * Breadth: BM25's length normalisation makes each term of a long field weigh less, but a text that
 * lists hundreds of words once each still matches some words of almost every request, at a steady
 * mid score that wins the weak end of a top k (keyword stuffing). So a tool whose distinct terms
 * exceed `pivot` times the catalog's median has its weights outside its name (at most 64
 * characters) scaled by (pivot · median / distinct terms)^power: its chance score then falls as its
 * vocabulary widens, while its name still counts in full.
 */
interface BreadthSettings {
  /** Multiple of the catalog's median number of distinct terms per tool left untouched (0 turns it off). */
  pivot: number;
  power: number;
  /** The share of the request's best score below which a broad tool is left out of the ranking. */
  floor: number;
}

export interface LocalRankingSettings {
  k1: number;
  fields: Record<FieldName, FieldSettings>;
  conversation: ConversationWeights;
  /** Query weight of words that occur in requests for almost any tool, relative to other words. */
  genericWordWeight: number;
  intents: IntentSettings;
  feedback: FeedbackSettings;
  coverage: CoverageSettings;
  breadth: BreadthSettings;
}

/**
 * The defaults: k1, field weights (the name's service prefix apart), the generic words' weight,
 * feedback and intent coverage chosen by five-fold cross-validation on the development sets only,
 * each set weighing the same (`npx tsx bench/tune.ts`; see BENCHMARKS.md).
 */
export const DEFAULT_SETTINGS: LocalRankingSettings = {
  k1: 0.9,
  fields: {
    name: { weight: 2.5, b: 0.3 },
    summary: { weight: 1, b: 0.75 },
    description: { weight: 0.7, b: 0.75 },
    tags: { weight: 1.5, b: 0.3 },
    parameters: { weight: 0.5, b: 0.3 },
    parameterText: { weight: 0.5, b: 0.75 },
    service: { weight: 5, b: 0 },
  },
  conversation: { user: 1, assistant: 0.4, tool: 0.15, system: 0, turnDecay: 0.5 },
  genericWordWeight: 0.7,
  intents: { weight: 0.5, context: 0.2 },
  feedback: { documents: 3, terms: 10, weight: 0.3 },
  coverage: { weight: 0.6, pool: 30, sharpness: 4 },
  // Not tuned with the rest: chosen on the development sets' poisoning rows (bench/poisoning.ts); no
  // labelled tool is touched (the broadest has 3.3 times its catalog's median).
  breadth: { pivot: 4, power: 2, floor: 0.05 },
};
