/**
 * Best `k` of the touched documents with a positive score, best first (ties by name), using a
 * bounded min-heap so the cost is O(touched · log k) instead of sorting every candidate.
 */
export function selectTopK(scores: Float64Array, touched: ArrayLike<number>, touchedCount: number, names: readonly string[], k: number): number[] {
  const limit = Math.min(Math.max(0, Math.floor(k)), touchedCount);
  if (limit === 0) return [];
  // Heap root is the weakest kept document: lowest score, and among equal scores the later name.
  const heap: number[] = [];
  const weaker = (a: number, b: number): boolean => scores[a] < scores[b] || (scores[a] === scores[b] && names[a] > names[b]);

  const siftDown = (start: number): void => {
    let parent = start;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let weakest = parent;
      if (left < heap.length && weaker(heap[left], heap[weakest])) weakest = left;
      if (right < heap.length && weaker(heap[right], heap[weakest])) weakest = right;
      if (weakest === parent) return;
      [heap[parent], heap[weakest]] = [heap[weakest], heap[parent]];
      parent = weakest;
    }
  };

  for (let i = 0; i < touchedCount; i++) {
    const doc = touched[i];
    if (!(scores[doc] > 0)) continue;
    if (heap.length < limit) {
      heap.push(doc);
      let child = heap.length - 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (!weaker(heap[child], heap[parent])) break;
        [heap[parent], heap[child]] = [heap[child], heap[parent]];
        child = parent;
      }
    } else if (weaker(heap[0], doc)) {
      heap[0] = doc;
      siftDown(0);
    }
  }

  return heap.sort((a, b) => (weaker(a, b) ? 1 : weaker(b, a) ? -1 : 0));
}
