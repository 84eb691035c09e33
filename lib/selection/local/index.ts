export { createLocalIndex } from "./bm25f";
export { BM25 } from "./bm25";
export { LocalIndexCache } from "./cache";
export { DEFAULT_SETTINGS, type LocalRankingSettings } from "./settings";
