import { LocalIndexCache } from "./local";
import type { Selector, SelectionInput, SelectionOutput } from "./selector";
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

/**
 * The embedded selector: the in-process BM25F ranker. Given a corpus, one index per corpus key
 * (a catalog revision) serves every candidate set drawn from it; otherwise the index is built
 * over, and reused per, the candidate set.
 */
export function createLocalSelector(cache: LocalIndexCache = new LocalIndexCache()): Selector {
  return {
    id: LOCAL_SELECTOR_ID,
    async select({ candidates, messages, k, indexKey, corpus }: SelectionInput): Promise<SelectionOutput> {
      const ranked = corpus
        ? cache.get(`corpus:${corpus.key}`, corpus.candidates).rankAmong(candidates, messages, k)
        : cache.get(`${indexKey}#${candidateFingerprint(candidates)}`, () => candidates).rank(messages, k);
      return { ranked, selector: LOCAL_SELECTOR_ID, raw: ranked, invented: [] };
    },
  };
}
