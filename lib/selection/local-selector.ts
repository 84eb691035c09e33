import { fuseLearned, LEARNING_POOL } from "./learned-fusion";
import { LocalIndexCache } from "./local";
import type { LocalIndex } from "./local/bm25f";
import type { Selector, SelectionCorpus, SelectionInput, SelectionOutput } from "./selector";
import type { SelectorCandidate } from "./types";

export const LOCAL_SELECTOR_ID = "local";

/**
 * FNV-1a over the candidate names, in order. Part of the cache key so that a caller reusing an
 * `indexKey` for a changed candidate set gets a fresh index instead of a stale one.
 */
export function candidateFingerprint(candidates: readonly SelectorCandidate[]): string {
  let hash = 0x811c9dc5;
  for (const candidate of candidates) {
    const name = candidate.name;
    for (let i = 0; i < name.length; i++) {
      hash ^= name.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    // A separator, so ["ab", "c"] and ["a", "bc"] differ.
    hash ^= 0x0a;
    hash = Math.imul(hash, 0x01000193);
  }
  return `${candidates.length}:${(hash >>> 0).toString(16)}`;
}

// Per frozen candidate array (preselection and ToolSearch reuse one per tool list): its names as a set, made once.
const candidateNames = new WeakMap<readonly SelectorCandidate[], ReadonlySet<string>>();

function namesOf(candidates: readonly SelectorCandidate[]): ReadonlySet<string> {
  let names = candidateNames.get(candidates);
  if (names === undefined) {
    names = new Set(candidates.map((candidate) => candidate.name));
    if (Object.isFrozen(candidates)) candidateNames.set(candidates, names);
  }
  return names;
}

/** The cache key of a whole catalog's index: one per corpus key. */
export function corpusIndexKey(corpus: SelectionCorpus): string {
  return `corpus:${corpus.key}`;
}

/** The index of a whole catalog in the cache, as the local selector keeps it. */
export function corpusIndex(cache: LocalIndexCache, corpus: SelectionCorpus): LocalIndex {
  return cache.get(corpusIndexKey(corpus), corpus.candidates, corpus.lineage);
}

/**
 * The embedded selector: the in-process BM25F ranker. Given a corpus, one index per corpus key
 * (a catalog revision) serves every candidate set drawn from it; otherwise the index is built
 * over, and reused per, the candidate set.
 */
export function createLocalSelector(cache: LocalIndexCache = new LocalIndexCache()): Selector {
  return {
    id: LOCAL_SELECTOR_ID,
    async select({ candidates, messages, k, indexKey, corpus, learning }: SelectionInput): Promise<SelectionOutput> {
      const index = corpus ? corpusIndex(cache, corpus) : cache.get(`${indexKey}#${candidateFingerprint(candidates)}`, () => candidates);
      const request = messages.findLast((message) => message.role === "user")?.content ?? "";
      const learned = learning?.scores(request, { documents: index.size, frequency: (term) => index.documentFrequency(term) });
      if (!learning || !learned || learned.size === 0) {
        const ranked = corpus ? index.rankAmong(candidates, messages, k) : index.rank(messages, k);
        return { ranked, selector: LOCAL_SELECTOR_ID, raw: ranked, invented: [] };
      }
      // The base ranking reaches deeper, so that learned evidence can lift a tool from below the top k.
      const depth = Math.max(k, LEARNING_POOL);
      const base = corpus ? index.rankAmong(candidates, messages, depth) : index.rank(messages, depth);
      const ranked = fuseLearned(base, learned, namesOf(candidates), k, learning.weight);
      return { ranked, selector: LOCAL_SELECTOR_ID, raw: ranked, invented: [] };
    },
  };
}
