import { type CorpusRevision, segmentDocument } from "./revision";

/** Where a fresh build first meets a term: the position of the first tool that holds it, and the term's first place in that tool's terms. */
interface FirstOccurrence {
  position: number;
  offset: number;
}

/**
 * The order a fresh build of a revision numbers its terms in: by the first tool, in the catalog's
 * order, that holds the term, then by the term's first occurrence in that tool's terms. Feedback sums
 * and breaks ties in this order, so a revision made from an earlier one picks the terms a fresh build
 * picks, whatever the segments' own numbering.
 */
export class FreshTermOrder {
  // Derived data only, worked out when first asked for.
  private readonly firstOccurrences = new Map<string, FirstOccurrence>();
  private documentPositions: Uint32Array | undefined;
  /** Per segment: whether its live documents come in the catalog's order, as they usually do (callers keep the tools' order). */
  private inCatalogOrder: boolean[] | undefined;
  private asRead: boolean | undefined;

  constructor(private readonly revision: CorpusRevision) {}

  /** The terms in a fresh build's order. */
  sorted(terms: readonly string[]): string[] {
    if (this.isAsRead()) {
      const [segment] = this.revision.segments;
      return [...terms].sort((a, b) => segment.termIds.get(a)! - segment.termIds.get(b)!);
    }
    const firsts = new Map(terms.map((term) => [term, this.firstOccurrence(term)]));
    return [...terms].sort((a, b) => {
      const [first, second] = [firsts.get(a)!, firsts.get(b)!];
      return first.position - second.position || first.offset - second.offset;
    });
  }

  /** One segment read from the candidates as they are, none gone: its term ids are a fresh build's. */
  private isAsRead(): boolean {
    if (this.asRead === undefined) {
      const { segments, dead, locations } = this.revision;
      this.asRead = segments.length === 1 && locations.length === dead.length && locations.every((doc, position) => doc === position);
    }
    return this.asRead;
  }

  private positions(): Uint32Array {
    if (this.documentPositions === undefined) {
      const { dead, locations } = this.revision;
      const positions = new Uint32Array(dead.length);
      for (let position = 0; position < locations.length; position++) positions[locations[position]] = position;
      this.documentPositions = positions;
    }
    return this.documentPositions;
  }

  /** Whether each segment's live documents are in the catalog's order: then a term's first live posting there is its first tool. */
  private segmentsInCatalogOrder(): boolean[] {
    if (this.inCatalogOrder === undefined) {
      const { segments, bases, dead } = this.revision;
      const positions = this.positions();
      this.inCatalogOrder = segments.map((_, index) => {
        let last = -1;
        for (let doc = bases[index]; doc < bases[index + 1]; doc++) {
          if (dead[doc] === 1) continue;
          if (positions[doc] < last) return false;
          last = positions[doc];
        }
        return true;
      });
    }
    return this.inCatalogOrder;
  }

  private firstOccurrence(term: string): FirstOccurrence {
    const known = this.firstOccurrences.get(term);
    if (known !== undefined) return known;
    const { segments, bases, dead } = this.revision;
    const positions = this.positions();
    const inCatalogOrder = this.segmentsInCatalogOrder();
    let firstDocument = -1;
    segments.forEach((segment, index) => {
      const termId = segment.termIds.get(term);
      if (termId === undefined) return;
      for (let slot = segment.offsets[termId]; slot < segment.offsets[termId + 1]; slot++) {
        const doc = bases[index] + segment.docs[slot];
        if (dead[doc] === 1) continue;
        if (firstDocument === -1 || positions[doc] < positions[firstDocument]) firstDocument = doc;
        if (inCatalogOrder[index]) return;
      }
    });
    const [segment, local] = segmentDocument(this.revision, firstDocument);
    const termId = segment.termIds.get(term);
    let at = segment.documentStarts[local];
    while (segment.occurrences[at] !== termId) at++;
    const first = { position: positions[firstDocument], offset: at - segment.documentStarts[local] };
    this.firstOccurrences.set(term, first);
    return first;
  }
}
