import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { BM25, createLocalIndex } from "../lib/selection/local";
import { candidateFingerprint } from "../lib/selection/local-selector";
import type { ConversationMessage, SelectorCandidate, ToolRanker } from "../lib/selection/types";
import { percentile } from "./metrics";
import { syntheticCatalog, syntheticConversations } from "./synthetic";
import { fixed, markdownTable } from "./table";

const CATALOG_SIZES = [200, 1_000, 10_000] as const;
const SELECTIONS = 500;
const WARM_UP = 50;
const TOP_K = 10;

interface Builder {
  label: string;
  build: (candidates: SelectorCandidate[]) => ToolRanker;
}

const BUILDERS: Builder[] = [
  { label: "local selector", build: (candidates) => createLocalIndex(candidates) },
  { label: "plain BM25", build: (candidates) => new BM25(candidates) },
];

// Exposes V8's collector without a command-line flag, so `npm run bench` measures retained heap.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** JS heap plus ArrayBuffer memory (where typed-array postings live), after a full collection. */
function memoryUsedAfterCollection(): number {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const COPIES_FOR_MEMORY = 8;

/**
 * Memory one built index keeps alive. A first build warms code and shared caches; then several
 * copies are held at once and the growth divided, which drowns V8's own heap noise (bytecode
 * flushing moves the figure by a megabyte or two either way).
 */
function retainedMegabytes(builder: Builder, candidates: SelectorCandidate[]): number {
  builder.build(candidates);
  const before = memoryUsedAfterCollection();
  const copies = Array.from({ length: COPIES_FOR_MEMORY }, () => builder.build(candidates));
  const after = memoryUsedAfterCollection();
  return copies.length > 0 ? (after - before) / copies.length / (1024 * 1024) : Number.NaN;
}

function measure(builder: Builder, candidates: SelectorCandidate[], conversations: ConversationMessage[][]) {
  const buildStart = performance.now();
  const ranker = builder.build(candidates);
  const buildMs = performance.now() - buildStart;

  for (const conversation of conversations.slice(0, WARM_UP)) ranker.rank(conversation, TOP_K);
  const samples = conversations.map((conversation) => {
    const start = performance.now();
    ranker.rank(conversation, TOP_K);
    return performance.now() - start;
  });
  return { buildMs, p50: percentile(samples, 50), p95: percentile(samples, 95), size: ranker.size };
}

/** Selection latency, build time and heap per catalog size, on deterministic synthetic catalogs. */
export function latencySection(): string {
  const conversations = syntheticConversations(SELECTIONS);
  const rows: (string | number)[][] = [];
  for (const size of CATALOG_SIZES) {
    const candidates = syntheticCatalog(size);
    // Timings first: the memory probe leaves garbage whose collection would land in them.
    const timings = BUILDERS.map((builder) => measure(builder, candidates, conversations));
    const megabytes = BUILDERS.map((builder) => retainedMegabytes(builder, candidates));
    BUILDERS.forEach((builder, index) => {
      const figures = timings[index];
      rows.push([
        builder.label,
        figures.size.toLocaleString("en-US"),
        fixed(figures.p50, 3),
        fixed(figures.p95, 3),
        fixed(figures.buildMs, 1),
        fixed(megabytes[index], 1),
      ]);
    });
  }
  const largest = syntheticCatalog(CATALOG_SIZES.at(-1)!);
  const fingerprintSamples = conversations.map(() => {
    const start = performance.now();
    candidateFingerprint(largest);
    return performance.now() - start;
  });
  return [
    `${SELECTIONS} three-message conversations per size, top-${TOP_K}, after ${WARM_UP} warm-up selections; ` +
      `heap = JS heap + ArrayBuffers retained per index (${COPIES_FOR_MEMORY} copies held, after a full GC).`,
    "",
    markdownTable(["selector", "tools", "p50 ms", "p95 ms", "index build ms", "heap MB"], rows),
    "",
    `Preselection and ToolSearch hand the local selector the catalog as a corpus: one index per catalog revision serves ` +
      `every model and agent, each ranking only the tools it sees (LocalIndex.rankAmong). Without a corpus, a selection ` +
      `fingerprints the candidate names to find its cached index: p50 ${fixed(percentile(fingerprintSamples, 50), 3)} ms more at ` +
      `${largest.length.toLocaleString("en-US")} tools.`,
  ].join("\n");
}
