import type { SelectorCandidate } from "../types";
import { countVocabulary, nameWordsOf, sameList, sameText } from "./analysis";
import { CorpusStatistics } from "./corpus-stats";
import { LayeredCounts } from "./layered-counts";
import { Segment } from "./segment";
import { namesAService, prefixCounts, prefixesOf } from "./services";
import { segmentCompound, stem } from "./tokenise";

/**
 * What the local index reads of one revision of a catalog: the tools' terms in a few immutable
 * segments, shared with the revisions before and after, and which of the segments' documents are
 * gone (tools changed or removed since the segment was read). The next revision reads only its
 * changed tools, into a segment of their own (`reviseCorpus`), and ranks as a fresh `analyseCorpus`
 * of its tools does: the corpus-wide figures are kept exactly.
 *
 * A document is numbered across the segments: segment s's document d is `bases[s] + d`.
 */
export interface CorpusRevision {
  readonly candidates: readonly SelectorCandidate[];
  /** Each word run-together names may be made of, with the number of its occurrences in the catalog's prose: the vocabulary. */
  readonly vocabulary: LayeredCounts;
  /** Each name prefix of one to three words, with the number of names it begins. */
  readonly prefixCounts: LayeredCounts;
  readonly prefixes: ReadonlySet<string>;
  readonly segments: readonly Segment[];
  /** `bases[s]`: the number of segment s's first document; the last: the number of documents, live or gone. */
  readonly bases: readonly number[];
  /** 1 for each document that is not one of the revision's tools. */
  readonly dead: Uint8Array;
  /** Each document's tool name. */
  readonly names: readonly string[];
  /** The document of each of `candidates`. */
  readonly locations: Uint32Array;
  readonly statistics: CorpusStatistics;
  /** For each term, the number of dead documents that hold it: document frequencies leave them out. */
  readonly deadTermCounts: ReadonlyMap<string, number>;
}

/** Past this share of tools outside the first segment, or gone from it, everything is read again into one. */
const REVISE_AT_MOST = 0.25;
/** At most this many segments, so a query looks in few. */
const MOST_SEGMENTS = 8;

/** A document as its segment and its number there. */
export function segmentDocument(revision: CorpusRevision, doc: number): readonly [Segment, number] {
  let segment = revision.segments.length - 1;
  while (revision.bases[segment] > doc) segment--;
  return [revision.segments[segment], doc - revision.bases[segment]];
}

/** The documents numbered alike in `revision` and a revision of `segments`: those of the segments both begin with. */
export function sharedDocuments(revision: CorpusRevision, segments: readonly Segment[]): number {
  let shared = 0;
  while (shared < segments.length && shared < revision.segments.length && segments[shared] === revision.segments[shared]) shared++;
  return revision.bases[shared];
}

/** The live document of a tool name, or -1: looked for in the first segment first, where most tools are. */
function documentNamed(revision: CorpusRevision, name: string): number {
  for (let segment = 0; segment < revision.segments.length; segment++) {
    const local = revision.segments[segment].byName.get(name);
    if (local !== undefined && revision.dead[revision.bases[segment] + local] === 0) return revision.bases[segment] + local;
  }
  return -1;
}

/**
 * The live document with the candidate's name and text, or -1: a frozen candidate matched before
 * is known by identity, any other found by name and its text compared.
 */
export function documentWithTextOf(revision: CorpusRevision, candidate: SelectorCandidate): number {
  for (let segment = 0; segment < revision.segments.length; segment++) {
    const local = revision.segments[segment].twinOf(candidate);
    if (local !== undefined && revision.dead[revision.bases[segment] + local] === 0) return revision.bases[segment] + local;
  }
  const doc = documentNamed(revision, candidate.name);
  if (doc === -1) return -1;
  const [segment, local] = segmentDocument(revision, doc);
  if (!sameText(segment.candidates[local], candidate)) return -1;
  segment.rememberTwin(candidate, local);
  return doc;
}

function documentsOf(segment: Segment): (readonly [Segment, number])[] {
  return segment.names.map((_, doc) => [segment, doc] as const);
}

function countPrefixes(counts: Map<string, number>, candidate: SelectorCandidate, change: 1 | -1): void {
  for (const [prefix, count] of prefixCounts([nameWordsOf(candidate)])) counts.set(prefix, (counts.get(prefix) ?? 0) + change * count);
}

/** Reads every tool's text, into one segment. */
export function analyseCorpus(candidates: readonly SelectorCandidate[]): CorpusRevision {
  const vocabularyCounts = new Map<string, number>();
  for (const candidate of candidates) countVocabulary(vocabularyCounts, candidate, 1);
  const counts = prefixCounts(candidates.map(nameWordsOf));
  const vocabulary = LayeredCounts.of(vocabularyCounts);
  const prefixes = prefixesOf(counts);
  const segment = new Segment(candidates, vocabulary, prefixes);
  return {
    candidates,
    vocabulary,
    prefixCounts: LayeredCounts.of(counts),
    prefixes,
    segments: [segment],
    bases: [0, segment.size],
    dead: new Uint8Array(segment.size),
    names: segment.names,
    locations: Uint32Array.from(candidates, (_, doc) => doc),
    statistics: CorpusStatistics.empty().changed([], documentsOf(segment)),
    deadTermCounts: new Map(),
  };
}

/**
 * The earlier document each tool is, or -1 where its text must be read: found by identity where the
 * tools are the earlier revision's objects in the same order (callers reuse them), else by name,
 * with the same text. `used` marks the documents found.
 */
function matchDocuments(earlier: CorpusRevision, candidates: readonly SelectorCandidate[], used: Uint8Array): Int32Array {
  const sources = new Int32Array(candidates.length).fill(-1);
  const before = earlier.candidates;
  let next = 0;
  for (let position = 0; position < candidates.length; position++) {
    const candidate = candidates[position];
    // One tool removed before this one: the earlier tools line up again one further on.
    if (before[next] !== candidate && before[next + 1] === candidate) next++;
    let doc: number;
    if (before[next] === candidate) doc = earlier.locations[next++];
    else {
      doc = documentWithTextOf(earlier, candidate);
      // The tool replaced in place: the next earlier one lines up with the next tool.
      if (before[next]?.name === candidate.name) next++;
    }
    if (doc !== -1 && used[doc] === 0) {
      used[doc] = 1;
      sources[position] = doc;
    }
  }
  return sources;
}

function candidateOf(revision: CorpusRevision, doc: number): SelectorCandidate {
  const [segment, local] = segmentDocument(revision, doc);
  return segment.candidates[local];
}

/**
 * The vocabulary and name prefixes with the tools that leave (documents not `used`) and those that
 * arrive (sources -1) counted; undefined when the services' prefixes change, which reshapes every
 * name of the service.
 */
function revisedCounts(earlier: CorpusRevision, candidates: readonly SelectorCandidate[], sources: Int32Array, used: Uint8Array) {
  const vocabularyDeltas = new Map<string, number>();
  const prefixDeltas = new Map<string, number>();
  const count = (candidate: SelectorCandidate, change: 1 | -1) => {
    countVocabulary(vocabularyDeltas, candidate, change);
    countPrefixes(prefixDeltas, candidate, change);
  };
  const earlierDead = earlier.dead;
  for (let doc = 0; doc < used.length; doc++) if (used[doc] === 0 && earlierDead[doc] === 0) count(candidateOf(earlier, doc), -1);
  for (let position = 0; position < sources.length; position++) if (sources[position] === -1) count(candidates[position], 1);
  for (const [prefix, delta] of prefixDeltas) {
    const was = earlier.prefixCounts.get(prefix);
    if (namesAService(was) !== namesAService(was + delta)) return undefined;
  }
  const vocabulary = earlier.vocabulary.with(vocabularyDeltas);
  const vocabularyChanges = [...vocabularyDeltas.keys()].filter((word) => earlier.vocabulary.has(word) !== vocabulary.has(word));
  return { vocabulary, vocabularyChanges, prefixCounts: earlier.prefixCounts.with(prefixDeltas) };
}

/**
 * Marks for reading again (unused, source -1) each kept document that holds a run-together word
 * whose pieces differ with the new vocabulary: one that holds a word that joined or left it.
 */
function readAgainWhereSplitDiffers(
  earlier: CorpusRevision,
  vocabulary: LayeredCounts,
  vocabularyChanges: readonly string[],
  sources: Int32Array,
  used: Uint8Array,
): void {
  if (vocabularyChanges.length === 0) return;
  const splitDiffers = new Map<string, boolean>();
  let any = false;
  earlier.segments.forEach((segment, index) => {
    for (const word of segment.compoundWords) {
      let differs = splitDiffers.get(word);
      if (differs === undefined) {
        // Most words that hold a changed one still split the same way ("credit" beside a new "edit").
        differs =
          vocabularyChanges.some((changedWord) => word.includes(changedWord)) &&
          !sameList(segmentCompound(word, earlier.vocabulary), segmentCompound(word, vocabulary));
        splitDiffers.set(word, differs);
      }
      // Every document that holds the word holds its stem as a term.
      const termId = differs ? segment.termIds.get(stem(word)) : undefined;
      if (termId === undefined) continue;
      for (let slot = segment.offsets[termId]; slot < segment.offsets[termId + 1]; slot++) {
        const doc = earlier.bases[index] + segment.docs[slot];
        if (used[doc] === 1) {
          used[doc] = 0;
          any = true;
        }
      }
    }
  });
  if (!any) return;
  for (let position = 0; position < sources.length; position++) if (sources[position] !== -1 && used[sources[position]] === 0) sources[position] = -1;
}

/** Live documents of segment `segment` that the next revision keeps. */
function keptIn(earlier: CorpusRevision, used: Uint8Array, segment: number): number {
  let kept = 0;
  for (let doc = earlier.bases[segment], end = earlier.bases[segment + 1]; doc < end; doc++) kept += used[doc];
  return kept;
}

/**
 * How many of the earlier segments stay as they are: those after them are read again, with the
 * `toRead` changed tools, into one. Below MOST_SEGMENTS, all. At it, as in a log-structured merge,
 * the last segments are read again back to the first one more than twice as large as what is read
 * anyway: a small edit never reads a large segment again, and a tool is read again a few times at
 * most however many edits come one by one.
 */
function segmentsKept(earlier: CorpusRevision, used: Uint8Array, toRead: number): number {
  if (earlier.segments.length < MOST_SEGMENTS) return earlier.segments.length;
  let kept = earlier.segments.length;
  let reading = toRead;
  while (kept > 1) {
    const live = keptIn(earlier, used, kept - 1);
    if (kept < MOST_SEGMENTS && live > 2 * reading) break;
    reading += live;
    kept--;
  }
  return kept;
}

/**
 * The analysis of `candidates`, the catalog's tools at a later revision, made from `earlier`'s: the
 * segments are shared, the tools whose text changed read into a new one. Ranks as
 * `analyseCorpus(candidates)` does. A change of the services' prefixes, or of many tools since the
 * first segment was read, reads everything again.
 */
export function reviseCorpus(earlier: CorpusRevision, candidates: readonly SelectorCandidate[]): CorpusRevision {
  const used = new Uint8Array(earlier.dead.length);
  const sources = matchDocuments(earlier, candidates, used);
  const keptFirst = keptIn(earlier, used, 0);
  const outside = candidates.length - keptFirst;
  const goneFromFirst = earlier.bases[1] - keptFirst;
  if (Math.max(outside, goneFromFirst) > REVISE_AT_MOST * Math.max(candidates.length, 1)) return analyseCorpus(candidates);
  const unchanged = sources.every((doc) => doc !== -1);
  if (unchanged && candidates.length === earlier.candidates.length) return { ...earlier, candidates, locations: Uint32Array.from(sources) };
  const counts = revisedCounts(earlier, candidates, sources, used);
  if (counts === undefined) return analyseCorpus(candidates);
  readAgainWhereSplitDiffers(earlier, counts.vocabulary, counts.vocabularyChanges, sources, used);
  let toRead = 0;
  for (const doc of sources) if (doc === -1) toRead++;
  const kept = segmentsKept(earlier, used, toRead);
  const keptDocuments = earlier.bases[kept];
  for (let position = 0; position < sources.length; position++) {
    if (sources[position] >= keptDocuments) {
      used[sources[position]] = 0;
      sources[position] = -1;
    }
  }
  const { vocabulary, prefixCounts } = counts;
  return assemble(earlier, candidates, sources, used, kept, { vocabulary, prefixCounts, prefixes: earlier.prefixes });
}

/**
 * The revision: the first `kept` segments of the earlier one, with the documents not `used` gone,
 * and a segment of the tools to read (sources -1); the corpus figures moved by the documents that
 * leave and arrive.
 */
function assemble(
  earlier: CorpusRevision,
  candidates: readonly SelectorCandidate[],
  sources: Int32Array,
  used: Uint8Array,
  kept: number,
  counts: Pick<CorpusRevision, "vocabulary" | "prefixCounts" | "prefixes">,
): CorpusRevision {
  const keptDocuments = earlier.bases[kept];
  const toRead: SelectorCandidate[] = [];
  const locations = new Uint32Array(candidates.length);
  for (let position = 0; position < sources.length; position++) {
    const doc = sources[position];
    if (doc !== -1) locations[position] = doc;
    else {
      locations[position] = keptDocuments + toRead.length;
      toRead.push(candidates[position]);
    }
  }
  const segment = new Segment(toRead, counts.vocabulary, counts.prefixes);
  const dead = new Uint8Array(keptDocuments + segment.size);
  for (let doc = 0; doc < keptDocuments; doc++) dead[doc] = 1 - used[doc];
  const leaving: (readonly [Segment, number])[] = [];
  const deadTermCounts = new Map(earlier.deadTermCounts);
  const countTerms = (doc: number, change: 1 | -1) => {
    const [documentSegment, local] = segmentDocument(earlier, doc);
    for (const termId of documentSegment.documentTermIds(local)) {
      const term = documentSegment.termNames[termId];
      const count = (deadTermCounts.get(term) ?? 0) + change;
      if (count === 0) deadTermCounts.delete(term);
      else deadTermCounts.set(term, count);
    }
  };
  const earlierDead = earlier.dead;
  for (let doc = 0; doc < used.length; doc++) {
    if (used[doc] === 1) continue;
    if (earlierDead[doc] === 0) {
      leaving.push(segmentDocument(earlier, doc));
      if (doc < keptDocuments) countTerms(doc, 1);
    } else if (doc >= keptDocuments) countTerms(doc, -1);
  }
  // Only tools removed: no segment of none.
  const added = segment.size > 0 ? [segment] : [];
  return {
    candidates,
    ...counts,
    segments: [...earlier.segments.slice(0, kept), ...added],
    bases: [...earlier.bases.slice(0, kept + 1), ...added.map(() => keptDocuments + segment.size)],
    dead,
    names: earlier.names.slice(0, keptDocuments).concat(segment.names),
    locations,
    statistics: earlier.statistics.changed(leaving, documentsOf(segment)),
    deadTermCounts,
  };
}
