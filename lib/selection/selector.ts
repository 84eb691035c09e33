import type { CatalogFrequencies, LearnedScore } from "./learned";
import type { ConversationMessage, RankedTool, SelectorCandidate } from "./types";

/** One ranking request: the tools the pipeline leaves visible, as names and short text only. */
export interface SelectionInput {
  candidates: SelectorCandidate[];
  messages: ConversationMessage[];
  k: number;
  /** Identifies the candidate set for index reuse, e.g. `${catalogId}@${revision}:${model}:${agent}`. */
  indexKey: string;
  /**
   * The catalog the candidates are drawn from. A selector that indexes (the local one) then keeps
   * one index per corpus key over the whole catalog and ranks only the candidates in it, instead
   * of an index per candidate set (per model and agent). Without it, it indexes the candidates.
   */
  corpus?: SelectionCorpus;
  /** What the catalog learned from use, when learning is on: the local selector adds it to its ranking. */
  learning?: SelectionLearning;
}

export interface SelectionLearning {
  /** Learned scores of the tools whose learned words match the request (the latest user message); `catalog` tells how common its words are. */
  scores: (request: string, catalog?: CatalogFrequencies) => ReadonlyMap<string, LearnedScore>;
  /** A perfect, trusted learned match weighs this many times the request's best base score. */
  weight: number;
}

/** A catalog's tools as a selector may know them, under a key that changes whenever they may. */
export interface SelectionCorpus {
  key: string;
  candidates: () => readonly SelectorCandidate[];
  /** What the corpus is a revision of (a catalog): a selector may build its index from the index of an earlier revision. */
  lineage?: string;
}

export interface SelectionOutput {
  /** Best first, at most k, only names that are among the candidates. */
  ranked: RankedTool[];
  /** The selector that produced `ranked`: "local", or e.g. "openai:gpt-5-mini". */
  selector: string;
  /** What the selector returned before any check, invented names included (JSON-serialisable). */
  raw: unknown;
  /** Names the selector returned that are not candidates; never in `ranked`. */
  invented: string[];
  /** Set when a model selector failed and the local selector answered instead. */
  fallback?: { from: string; cause: string };
}

/** The one interface every selector (local ranker, LLM through the AI SDK) implements. */
export interface Selector {
  readonly id: string;
  select(input: SelectionInput): Promise<SelectionOutput>;
}
