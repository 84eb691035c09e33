import type { EmbeddingIndex } from "./embedding-index";
import { reciprocalRankFusion } from "./fusion";
import { candidateFingerprint } from "./local-selector";
import type { Selector, SelectionInput, SelectionOutput } from "./selector";
import type { ConversationMessage } from "./types";

export const HYBRID_SELECTOR_ID = "hybrid";
/** One embedding call and, for a catalog not yet embedded, waiting on its build. */
export const DEFAULT_EMBEDDING_TIMEOUT_MS = 3_000;
/** How deep each ranking goes into the fusion: a tool second-best in both should beat one first in one. */
const FUSION_DEPTH = 50;

export interface HybridSelectorOptions {
  embeddings: EmbeddingIndex;
  /** The lexical ranking fused with the embedding one; it alone answers on a timeout or an error. */
  local: Selector;
  timeoutMs?: number;
}

/** What is embedded of a conversation: the latest user message (a ToolSearch query is one). */
function queryText(messages: readonly ConversationMessage[]): string {
  return messages.findLast((message) => message.role === "user")?.content ?? "";
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** The hybrid selector, with the index whose progress it can report. */
export interface HybridSelector extends Selector {
  readonly embeddings: EmbeddingIndex;
}

/**
 * Local ranking and embedding similarity, fused by reciprocal rank. The tools' vectors come from
 * the embedding index (a matrix per catalog revision); each request costs one embedding call.
 */
export function createHybridSelector({ embeddings, local, timeoutMs = DEFAULT_EMBEDDING_TIMEOUT_MS }: HybridSelectorOptions): HybridSelector {
  return {
    id: HYBRID_SELECTOR_ID,
    embeddings,
    async select(input: SelectionInput): Promise<SelectionOutput> {
      const { candidates, k, corpus } = input;
      const depth = Math.max(k, FUSION_DEPTH);
      const lexical = await local.select({ ...input, k: depth });
      // Visibility is applied at query time: the matrix covers the catalog, the search only the candidates.
      const tools = corpus ?? { key: `${input.indexKey}#${candidateFingerprint(candidates)}`, candidates: () => candidates };
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const [matrix, query] = await Promise.all([untilAborted(embeddings.matrix(tools), signal), embeddings.embedQuery(queryText(input.messages), signal)]);
        const semantic = matrix.nearest(query, depth, candidates);
        const ranked = reciprocalRankFusion([lexical.ranked, semantic]).slice(0, Math.max(0, k));
        const shown = Math.max(0, 2 * k);
        return {
          ranked,
          selector: HYBRID_SELECTOR_ID,
          raw: { model: embeddings.modelId, local: lexical.ranked.slice(0, shown), embedding: semantic.slice(0, shown) },
          invented: [],
        };
      } catch (error) {
        const progress = embeddings.running(tools.key);
        const cause = !signal.aborted
          ? error instanceof Error
            ? error.message
            : String(error)
          : `timeout after ${timeoutMs} ms${progress ? ` (embedding the tools: ${progress.embedded} of ${progress.total} done)` : ""}`;
        const ranked = lexical.ranked.slice(0, Math.max(0, k));
        return { ...lexical, ranked, raw: { model: embeddings.modelId, fallbackOutput: ranked }, fallback: { from: HYBRID_SELECTOR_ID, cause } };
      }
    },
  };
}
