import { embedMany } from "ai";
import { embeddingModelFromEnv, type ModelEnv } from "../lib/ai/models";
import { EmbeddingIndex, type EmbeddingStore } from "../lib/selection/embedding-index";
import { createHybridSelector } from "../lib/selection/hybrid-selector";
import { createLocalSelector } from "../lib/selection/local-selector";
import type { SelectionCorpus, SelectionInput } from "../lib/selection/selector";
import { candidatesOf, type LabelledSet } from "./labelledSet";
import { evaluate } from "./quality";
import { fixed, markdownTable } from "./table";

const DEPTH = 10;

/** Vectors for this run only: the bench never writes to a database. */
function memoryStore(): EmbeddingStore {
  const vectors = new Map<string, Float32Array>();
  const found = (hashes: readonly string[]) => hashes.filter((hash) => vectors.has(hash));
  return {
    load: (_model, hashes) => new Map(found(hashes).map((hash) => [hash, vectors.get(hash)!])),
    save: (_model, saved) => {
      for (const [hash, vector] of saved) vectors.set(hash, vector);
    },
    count: (_model, hashes) => found(hashes).length,
  };
}

/** The requests' vectors, computed in batches up front instead of one call per request. */
class PrecomputedQueries extends EmbeddingIndex {
  queries = new Map<string, number[]>();

  override embedQuery(text: string, abortSignal: AbortSignal): Promise<number[]> {
    const vector = this.queries.get(text);
    return vector ? Promise.resolve(vector) : super.embedQuery(text, abortSignal);
  }
}

/**
 * The hybrid selector on a labelled set, configured as the server is (TOOLSHED_EMBEDDING_MODEL and
 * its provider's variables), beside the local selector and the embeddings alone.
 */
export async function embeddingQualitySection(set: LabelledSet, env: ModelEnv = process.env): Promise<string> {
  const setting = embeddingModelFromEnv(env);
  if (setting === undefined) {
    return "Not measured: set TOOLSHED_EMBEDDING_MODEL (with its provider's key or base URL, as for the server) to add the hybrid selector.";
  }
  const candidates = Object.freeze(candidatesOf(set));
  const corpus: SelectionCorpus = { key: "bench", candidates: () => [...candidates] };
  const embeddings = new PrecomputedQueries({
    modelId: setting.id,
    model: setting.model,
    store: memoryStore(),
    batchSize: setting.batchSize,
    log: (line) => console.error(line),
  });
  const matrix = await embeddings.matrix(corpus);
  const queries = [...new Set(set.cases.map((labelled) => labelled.query))];
  const { embeddings: vectors } = await embedMany({ model: setting.model, values: queries, maxParallelCalls: 4 });
  queries.forEach((query, index) => {
    embeddings.queries.set(query, vectors[index]);
  });

  const local = createLocalSelector();
  const hybrid = createHybridSelector({ embeddings, local, timeoutMs: setting.timeoutMs });
  const input = (query: string): SelectionInput => ({
    candidates: candidates as SelectionInput["candidates"],
    messages: [{ role: "user", content: query }],
    k: DEPTH,
    indexKey: "bench",
    corpus,
  });
  let fallbacks = 0;
  const searches = [
    { label: "local selector", search: async (query: string) => (await local.select(input(query))).ranked.map((tool) => tool.name) },
    {
      label: `embeddings only (${setting.id})`,
      search: async (query: string) => matrix.nearest(embeddings.queries.get(query)!, DEPTH, candidates).map((tool) => tool.name),
    },
    {
      label: `hybrid: local + ${setting.id}, RRF`,
      search: async (query: string) => {
        const output = await hybrid.select(input(query));
        if (output.fallback) fallbacks++;
        return output.ranked.map((tool) => tool.name);
      },
    },
  ];
  const rows: string[][] = [];
  for (const { label, search } of searches) {
    const figures = await evaluate(search, set.cases);
    rows.push([label, fixed(figures.recallAt1), fixed(figures.recallAt5), fixed(figures.recallAt10), fixed(figures.ndcgAt10)]);
  }
  return [
    `${set.tools.length} tools, ${set.cases.length} cases; ${fallbacks} hybrid answers fell back to the local selector.`,
    "",
    markdownTable(["selector", "recall@1", "recall@5", "recall@10", "nDCG@10"], rows),
  ].join("\n");
}
