/**
 * Inverted index in compressed-sparse-row form: the postings of term `t` are
 * `docs[offsets[t] .. offsets[t + 1])` with their precomputed, query-independent weights.
 */
export interface Postings {
  readonly termIds: ReadonlyMap<string, number>;
  readonly offsets: Uint32Array;
  readonly docs: Uint32Array;
  readonly weights: Float32Array;
}

/**
 * Packs per-document term statistics into postings. `weigh(stats, doc, docFrequency)` turns the
 * statistics of one term in one document into its final weight (e.g. a saturated BM25 term score).
 */
export function buildPostings<Stats>(
  perDocument: ReadonlyArray<ReadonlyMap<string, Stats>>,
  weigh: (stats: Stats, doc: number, documentFrequency: number) => number,
): Postings {
  const termIds = new Map<string, number>();
  const documentFrequency: number[] = [];
  for (const terms of perDocument) {
    for (const term of terms.keys()) {
      let id = termIds.get(term);
      if (id === undefined) {
        id = documentFrequency.length;
        termIds.set(term, id);
        documentFrequency.push(0);
      }
      documentFrequency[id]++;
    }
  }

  const offsets = new Uint32Array(documentFrequency.length + 1);
  for (let id = 0; id < documentFrequency.length; id++) offsets[id + 1] = offsets[id] + documentFrequency[id];
  const docs = new Uint32Array(offsets[documentFrequency.length]);
  const weights = new Float32Array(docs.length);
  const cursor = offsets.slice(0, documentFrequency.length);

  perDocument.forEach((terms, doc) => {
    for (const [term, stats] of terms) {
      const id = termIds.get(term)!;
      const slot = cursor[id]++;
      docs[slot] = doc;
      weights[slot] = weigh(stats, doc, documentFrequency[id]);
    }
  });
  return { termIds, offsets, docs, weights };
}

/** Robertson–Spärck Jones idf; the +1 inside the log keeps terms found in most documents positive. */
export function inverseDocumentFrequency(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * Adds `queryWeight · postingWeight` of each query term to the documents' scores; returns the
 * documents touched, in first-touch order, so top-k only looks at them.
 */
export function accumulate(
  postings: Postings,
  queryWeights: ReadonlyMap<number, number>,
  documentCount: number,
): { scores: Float64Array; touched: Uint32Array; touchedCount: number } {
  const scores = new Float64Array(documentCount);
  const seen = new Uint8Array(documentCount);
  const touched = new Uint32Array(documentCount);
  let touchedCount = 0;
  for (const [termId, queryWeight] of queryWeights) {
    const end = postings.offsets[termId + 1];
    for (let slot = postings.offsets[termId]; slot < end; slot++) {
      const doc = postings.docs[slot];
      scores[doc] += queryWeight * postings.weights[slot];
      if (seen[doc] === 0) {
        seen[doc] = 1;
        touched[touchedCount++] = doc;
      }
    }
  }
  return { scores, touched, touchedCount };
}
