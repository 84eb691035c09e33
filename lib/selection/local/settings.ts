import type { ExpansionStrengths } from "./expand";

export type FieldName = "name" | "summary" | "description" | "tags" | "parameters";

export interface FieldSettings {
  /** How much one occurrence in this field counts relative to the others. */
  weight: number;
  /** BM25 length normalisation for this field (0 = none, 1 = full). */
  b: number;
}

export interface ConversationWeights {
  user: number;
  assistant: number;
  tool: number;
  system: number;
  /** Each earlier user turn multiplies the weight of its messages by this factor. */
  turnDecay: number;
}

export interface LocalRankingSettings {
  k1: number;
  fields: Record<FieldName, FieldSettings>;
  expansion: ExpansionStrengths;
  conversation: ConversationWeights;
  /** Query weight of words that occur in requests for almost any tool, relative to other words. */
  genericWordWeight: number;
}

/** The defaults; chosen on the development half of the MetaTool cases (see BENCHMARKS.md). */
export const DEFAULT_SETTINGS: LocalRankingSettings = {
  k1: 1.2,
  fields: {
    name: { weight: 2.5, b: 0.3 },
    summary: { weight: 1, b: 0.75 },
    description: { weight: 0.7, b: 0.75 },
    tags: { weight: 1.5, b: 0.3 },
    parameters: { weight: 0.5, b: 0.3 },
  },
  expansion: { synonym: 0.6, topic: 0.3 },
  conversation: { user: 1, assistant: 0.4, tool: 0.15, system: 0, turnDecay: 0.5 },
  genericWordWeight: 0.4,
};
