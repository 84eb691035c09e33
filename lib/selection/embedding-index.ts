import { createHash } from "node:crypto";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { embed, embedMany } from "ai";
import { Lru } from "../tools/lru";
import type { SelectionCorpus } from "./selector";
import type { SelectorCandidate } from "./types";
import { VectorMatrix, type VectorRow } from "./vectors";

/** Where vectors outlive the process, per embedding model and definition hash (a database answers asynchronously). */
export interface EmbeddingStore {
  /** The stored vectors of those hashes that have one. */
  load(model: string, hashes: readonly string[]): Map<string, Float32Array> | Promise<Map<string, Float32Array>>;
  save(model: string, vectors: ReadonlyMap<string, Float32Array>): void | Promise<void>;
  /** How many of the hashes have a stored vector. */
  count(model: string, hashes: readonly string[]): number | Promise<number>;
}

export interface EmbeddingProgress {
  /** Tools with a vector, of `total`. */
  embedded: number;
  total: number;
  /** True while a build embeds the rest. */
  running: boolean;
  /** Why the last build failed, if it did and none has run since. */
  error: string | null;
}

export interface EmbeddingIndexOptions {
  /** Recorded with each vector and in decisions, e.g. "openai:text-embedding-3-small". */
  modelId: string;
  model: EmbeddingModelV4;
  store: EmbeddingStore;
  /** Values per embedding call, at most the model's own limit. */
  batchSize?: number;
  /** One batch's time limit: a hung provider fails the build instead of holding it forever. */
  batchTimeoutMs?: number;
  /** Progress lines, e.g. the server log. */
  log?: (line: string) => void;
}

export const DEFAULT_EMBEDDING_BATCH = 256;
const DEFAULT_EMBEDDING_BATCH_TIMEOUT_MS = 60_000;
/** A few catalogs' revisions: 50,000 tools of 1,536 dimensions are ≈ 300 MB. */
const MATRIX_CACHE_ENTRIES = 8;
const MATRIX_CACHE_BYTES = 1024 ** 3;
// Longer text adds little to what a tool is for, and costs tokens on every re-embedding.
const MAX_DESCRIPTION_CHARS = 2_000;
const MAX_QUERY_CHARS = 4_000;

/** What is embedded of a tool: its name, words of its name, summary, description and parameter names. */
export function embeddingText(candidate: SelectorCandidate): string {
  const lines = [
    `${candidate.name} (${candidate.name
      .replace(/[_\-.]+/g, " ")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()})`,
    candidate.summary,
  ];
  const description = candidate.description?.trim();
  if (description && description !== candidate.summary.trim()) lines.push(description.slice(0, MAX_DESCRIPTION_CHARS));
  if (candidate.parameterNames?.length) lines.push(`Parameters: ${candidate.parameterNames.join(", ")}`);
  if (candidate.tags?.length) lines.push(`Tags: ${candidate.tags.join(", ")}`);
  return lines.join("\n");
}

/** The key of a tool's vector: the hash of the text it was computed from, so an edit re-embeds the tool. */
function definitionHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

interface Build {
  progress: { embedded: number; total: number };
  done: Promise<VectorMatrix>;
  /** Settles once the build has counted what the store already holds (or has ended). */
  loaded: Promise<void>;
}

interface Definition {
  name: string;
  text: string;
  hash: string;
}

function definitionsOf(candidates: readonly SelectorCandidate[]): Definition[] {
  return candidates.map((candidate) => {
    const text = embeddingText(candidate);
    return { name: candidate.name, text, hash: definitionHash(text) };
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The vectors of each tool set (a catalog revision), as a matrix cached per key like the local
 * index. Building one reuses the rows of cached matrices and the stored vectors, and embeds only
 * the tools whose text no vector was computed from, in batches, storing each batch as it returns.
 * One build per key runs at a time; callers join it.
 */
export class EmbeddingIndex {
  readonly modelId: string;
  private readonly options: EmbeddingIndexOptions;
  private readonly matrices = new Lru<string, VectorMatrix>({
    maxEntries: MATRIX_CACHE_ENTRIES,
    maxWeight: MATRIX_CACHE_BYTES,
    weigh: (matrix) => matrix.bytes,
  });
  private readonly builds = new Map<string, Build>();
  private readonly failures = new Lru<string, string>({ maxEntries: MATRIX_CACHE_ENTRIES });

  constructor(options: EmbeddingIndexOptions) {
    this.options = options;
    this.modelId = options.modelId;
  }

  /** The matrix of the tool set, built (or joined) when it is not cached. */
  matrix(corpus: SelectionCorpus): Promise<VectorMatrix> {
    const cached = this.matrices.get(corpus.key);
    return cached ? Promise.resolve(cached) : this.start(corpus).done;
  }

  /** Starts building the tool set's matrix unless it is cached or being built; returns its progress. */
  async ensure(corpus: SelectionCorpus): Promise<EmbeddingProgress> {
    if (!this.matrices.has(corpus.key)) await this.start(corpus).loaded;
    return this.progress(corpus);
  }

  /** How far the tool set is embedded, from the cache, the running build or the store. */
  async progress(corpus: SelectionCorpus): Promise<EmbeddingProgress> {
    const cached = this.matrices.peek(corpus.key);
    if (cached) return { embedded: cached.size, total: cached.size, running: false, error: null };
    const running = this.running(corpus.key);
    if (running) return running;
    const definitions = definitionsOf(corpus.candidates());
    return {
      embedded: await this.options.store.count(
        this.modelId,
        definitions.map((definition) => definition.hash),
      ),
      total: definitions.length,
      running: false,
      error: this.failures.peek(corpus.key) ?? null,
    };
  }

  /** The progress of the build running for the tool set under `key`, if one is. */
  running(key: string): EmbeddingProgress | undefined {
    const build = this.builds.get(key);
    return build && { ...build.progress, running: true, error: null };
  }

  /** The vector of a request, normalised by the search. */
  async embedQuery(text: string, abortSignal: AbortSignal): Promise<number[]> {
    const { embedding } = await embed({ model: this.options.model, value: text.slice(0, MAX_QUERY_CHARS), abortSignal, maxRetries: 0 });
    return embedding;
  }

  private start({ key, candidates }: SelectionCorpus): Build {
    const running = this.builds.get(key);
    if (running) return running;
    const progress = { embedded: 0, total: 0 };
    let markLoaded = () => {};
    const loaded = new Promise<void>((resolve) => (markLoaded = resolve));
    const done = this.build(key, definitionsOf(candidates()), progress, markLoaded).then(
      (matrix) => {
        this.builds.delete(key);
        this.failures.delete(key);
        this.matrices.set(key, matrix);
        return matrix;
      },
      (error: unknown) => {
        this.builds.delete(key);
        this.failures.set(key, errorMessage(error));
        this.options.log?.(`Embeddings (${this.modelId}) of ${key} failed: ${errorMessage(error)}`);
        throw error;
      },
    );
    // A build started by ensure() may have no one waiting for it: its failure is recorded, not unhandled.
    done.catch(() => undefined);
    const ended = done.then(
      () => undefined,
      () => undefined,
    );
    const build = { progress, done, loaded: Promise.race([loaded, ended]) };
    this.builds.set(key, build);
    return build;
  }

  private reusable(hash: string): Float32Array | undefined {
    for (const key of this.matrices.keys()) {
      const vector = this.matrices.peek(key)?.vectorOf(hash);
      if (vector) return vector;
    }
    return undefined;
  }

  private async build(key: string, definitions: Definition[], progress: Build["progress"], loaded: () => void): Promise<VectorMatrix> {
    const { model, store, log } = this.options;
    const vectors = new Map<string, ArrayLike<number>>();
    for (const { hash } of definitions) {
      const vector = this.reusable(hash);
      if (vector) vectors.set(hash, vector);
    }
    const unknown = definitions.filter((definition) => !vectors.has(definition.hash));
    for (const [hash, vector] of await store.load(
      this.modelId,
      unknown.map((definition) => definition.hash),
    ))
      vectors.set(hash, vector);
    const missing = unknown.filter((definition) => !vectors.has(definition.hash));
    progress.total = definitions.length;
    progress.embedded = definitions.length - missing.length;
    loaded();

    if (missing.length > 0) {
      const modelLimit = (await model.maxEmbeddingsPerCall) ?? Number.POSITIVE_INFINITY;
      const batchSize = Math.max(1, Math.min(this.options.batchSize ?? DEFAULT_EMBEDDING_BATCH, modelLimit));
      log?.(`Embeddings (${this.modelId}) of ${key}: ${missing.length} of ${definitions.length} tools to embed, ${batchSize} per call.`);
      for (let start = 0; start < missing.length; start += batchSize) {
        const batch = missing.slice(start, start + batchSize);
        const { embeddings } = await embedMany({
          model,
          values: batch.map((definition) => definition.text),
          abortSignal: AbortSignal.timeout(this.options.batchTimeoutMs ?? DEFAULT_EMBEDDING_BATCH_TIMEOUT_MS),
          // A failed batch fails the build; the next one resumes from what is stored.
          maxRetries: 0,
        });
        const stored = new Map(batch.map((definition, index) => [definition.hash, Float32Array.from(embeddings[index])]));
        await store.save(this.modelId, stored);
        for (const [hash, vector] of stored) vectors.set(hash, vector);
        progress.embedded += batch.length;
        log?.(`Embeddings (${this.modelId}) of ${key}: ${progress.embedded} of ${progress.total} tools.`);
      }
    }

    const rows: VectorRow[] = definitions.map(({ name, hash }) => ({ name, hash, vector: vectors.get(hash)! }));
    return new VectorMatrix(rows[0]?.vector.length ?? 0, rows);
  }
}
