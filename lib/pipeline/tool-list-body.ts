import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { definitionTokens } from "../formats/tokens";
import { Lru } from "../tools/lru";
import { finalIdentitiesOf, lineageKeyOf, sharedStateOf, type ToolList } from "./tool-list";
import { editsByIdentity, type Identities, type ToolEdit, toolEdits } from "./tool-edits";
import type { FinalTool } from "./types";

// The answer of POST …/tool-list is the whole visible list: ≈ 7 MB of JSON at 10,000 tools with
// ordinary schemas, ≈ 36 MB at 50,000. Serialising it again on every request costs more than all
// the rest of the request (≈ 560 ms at 50,000 tools), so it is kept as UTF-8 bytes; only the few
// fields before it are serialised per request. The bytes are exactly those of JSON.stringify.
//
// A list's long arrays (its formatted tools, their annotations, their token counts) are cut into
// chunks of consecutive items, each kept as bytes with its digest under its first item's number
// and reused by every list that holds the same items in a row (their numbers, see Identities in
// lib/pipeline/tool-edits.ts): the lists of the model/agent combinations, and the lists of the
// next catalog revision, whose unchanged tools are the same objects (lib/pipeline/ledger.ts). A
// chunk ends after an item whose name hashes to a boundary, so chunks start at the same tools in
// every list: a tool one list leaves out or a revision edits costs the chunk around it, not the
// rest of the list. The entity tag is made of the chunks' digests, so it too costs the changed
// chunks. The body of a request's next list is made from its latest list's: the chunks no edit
// reaches are kept where their items moved to, without looking each up (at 50,000 tools that walk
// and the check of every name cost ≈ 15 ms a request), and a chunk whose tools were edited in
// place keeps the bytes of the others.

/** The bytes of the chunks kept for all lists (each list's own parts live as long as the list). */
export const TOOL_LIST_BODY_CACHE_BYTES = 320 * 1024 * 1024;
/** One name in this many ends a chunk of formatted tools: chunks hold about this many items. */
export const ITEMS_PER_CHUNK = 128;
/**
 * The same for annotations and token counts, whose items are some 50 bytes against a formatted
 * tool's 700: in chunks of 128 they made 800 of the 1,200 parts of a 50,000-tool body for 4 of its
 * 36 MB, and each part costs the response stream about 10 µs. A multiple of ITEMS_PER_CHUNK, so
 * their boundaries are tools' boundaries too.
 */
const SMALL_ITEMS_PER_CHUNK = 8 * ITEMS_PER_CHUNK;
/** A chunk holds at most this many times its section's usual number of items, whatever the names. */
const MAX_CHUNK_SPAN = 4;

const encoder = new TextEncoder();

/** Consecutive items of a list as JSON, each with a leading comma, where each item's bytes start, and the digest of those bytes. */
interface Chunk {
  /** The numbers of its items, by which it is found again; none for a chunk that is not kept. */
  ids: Uint32Array | undefined;
  bytes: Uint8Array;
  /** Item k's bytes (its comma first) are bytes[offsets[k], offsets[k + 1]). */
  offsets: Uint32Array;
  digest: Uint8Array;
}

/** A list's own part of the body: its chunks and the bytes between them, and a digest of it all, which entity tags are made of. */
interface ListBody {
  /** Chunks of the tools, of the annotations and of the token counts, in that order. */
  sections: [Chunk[], Chunk[], Chunk[]];
  /** `],"annotations":[`, `],"trace":…,"tokens":{"total":…,"perTool":{` and `}}}`, or the whole rest for a list whose token counts are not chunked. */
  joints: [Uint8Array, Uint8Array, Uint8Array];
  digest: string;
}

const isDetached = (bytes: Uint8Array) => bytes.buffer.byteLength === 0;
const sizeOf = (chunk: Chunk) => chunk.offsets.length - 1;

/** FNV-1a of a name: whether its item ends a chunk depends on the name alone. */
function endsChunk(name: string, itemsPerChunk: number): boolean {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
  return (hash >>> 0) % itemsPerChunk === 0;
}

/** An array index as a key ("0", "42"): JSON.stringify puts such keys of an object first, in numeric order. */
const isIndexKey = (name: string) => /^(?:0|[1-9]\d{0,8})$/.test(name);

/** One of a list's long arrays: how many items, their numbers, their names (which cut the chunks) and each item's JSON. */
interface Section {
  kind: string;
  itemsPerChunk: number;
  size: number;
  /** The numbers of the list's final tools, which stand for the items of each section: only a shared list's, whose chunks are kept. */
  ids: Identities | undefined;
  nameOf: (index: number) => string;
  jsonOf: (index: number) => string;
}

/** The fields the route answers before the list's own, e.g. { catalog, revision, model, agent, provider, mode, format }. */
export type ToolListBodyHead = Record<string, unknown>;

/** What follows the tools in the answer. */
function listFields(list: ToolList) {
  return {
    annotations: list.final.map(({ name, source, needsApproval }) => ({ name, source, needsApproval })),
    trace: list.trace,
    tokens: list.tokens,
  };
}

/**
 * The answer of POST …/tool-list as an object: the head's fields, then the formatted tools, each
 * final tool's `{ name, source, needsApproval }`, the trace and the token counts.
 */
export function toolListResponse<Head extends ToolListBodyHead>(head: Head, list: ToolList) {
  return { ...head, tools: list.tools, ...listFields(list) };
}

/**
 * Tool-list bodies kept as bytes: the chunks within a byte budget, least recently used first out,
 * and each list's own parts for as long as the list is kept (keyed weakly: a cache that held the
 * lists would keep their catalog states, and all made from those, alive). The app keeps one (the
 * functions below).
 */
export class ToolListBodies {
  private readonly kept: Lru<string, Chunk[]>;
  private readonly listBodies = new WeakMap<ToolList, ListBody>();
  /** Per catalog and request, the latest list a body was made for: the next one's is made from its. */
  private readonly latest = new Lru<string, ToolList>({ maxEntries: LATEST_LISTS });

  constructor(maxBytes: number) {
    this.kept = new Lru({
      // Bounded by bytes; the count only keeps the map from growing with tiny entries.
      maxEntries: 200_000,
      maxWeight: maxBytes,
      weigh: (chunks) => chunks.reduce((sum, chunk) => sum + chunk.bytes.length, 0),
    });
  }

  /** The chunks of a section, those kept reused where the same items follow in a row, the others made and, for a shared list, kept. */
  private chunksOf(section: Section): Chunk[] {
    const chunks: Chunk[] = [];
    for (let start = 0; start < section.size; start += sizeOf(chunks[chunks.length - 1])) chunks.push(this.chunkAt(section, start));
    return chunks;
  }

  /**
   * The chunks of a section from those of the same request's earlier list, given the edits from
   * its items to these: an earlier chunk no edit reaches is kept where its items are now; the
   * items around the edits are cut into chunks again, up to the next chunk kept.
   */
  private patchedChunksOf(section: Section, earlier: readonly Chunk[], edits: readonly ToolEdit<object>[], inPlace: readonly boolean[]): Chunk[] {
    const kept = new Map<number, Chunk>();
    let [start, shift, next] = [0, 0, 0];
    for (const chunk of earlier) {
      const end = start + sizeOf(chunk);
      for (; next < edits.length && isBefore(edits[next], start); next++) shift += edits[next].inserted.length - edits[next].removed;
      let last = next;
      while (last < edits.length && reaches(edits[last], start, end)) last++;
      if (last === next) kept.set(start + shift, chunk);
      else if (edits.slice(next, last).every((edit, index) => inPlace[next + index] && edit.from >= start && edit.from + edit.removed <= end)) {
        kept.set(start + shift, this.splicedChunk(section, chunk, start + shift, edits.slice(next, last), start));
      }
      start = end;
    }
    const chunks: Chunk[] = [];
    for (let at = 0; at < section.size; at += sizeOf(chunks[chunks.length - 1])) {
      chunks.push(kept.get(at) ?? this.chunkAt(section, at, (position) => kept.has(position)));
    }
    return chunks;
  }

  /**
   * The chunk of a section's items that starts at `start`: a kept one that holds the items there,
   * else one made of the items up to a boundary (or to a position `ends` names) and, for a shared list, kept.
   */
  private chunkAt(section: Section, start: number, ends?: (position: number) => boolean): Chunk {
    const { itemsPerChunk, size, ids, nameOf, jsonOf } = section;
    const { key, variants, found } = this.lookUp(section, start);
    if (found !== undefined) return found;
    let end = start + 1;
    const most = MAX_CHUNK_SPAN * itemsPerChunk;
    while (end < size && end - start < most && !endsChunk(nameOf(end - 1), itemsPerChunk) && !ends?.(end)) end++;
    const json: string[] = [];
    for (let index = start; index < end; index++) json.push(jsonOf(index));
    const text = `,${json.join(",")}`;
    const bytes = encoder.encode(text);
    const chunk = { ids: ids?.ids.slice(start, end), bytes, offsets: itemOffsets(json, bytes.length === text.length), digest: sha256(bytes) };
    if (key !== undefined) this.keep(key, chunk, variants);
    return chunk;
  }

  /** For a shared list's section: the key of the chunks kept under the item at `start`, those chunks, and the one that holds the items there. */
  private lookUp({ kind, ids }: Section, start: number): { key?: string; variants: readonly Chunk[]; found?: Chunk } {
    if (ids === undefined) return { variants: [] };
    const key = `${kind}:${ids.generation}:${ids.ids[start]}`;
    const variants = this.kept.get(key) ?? [];
    return { key, variants, found: variants.find((each) => !isDetached(each.bytes) && holdsAt(each, ids.ids, start)) };
  }

  /** Kept beside the variants already kept under its first item: the lists of other combinations may go on differently from it. */
  private keep(key: string, chunk: Chunk, variants: readonly Chunk[]) {
    this.kept.set(key, [chunk, ...variants.filter((each) => !isDetached(each.bytes)).slice(0, CHUNK_VARIANTS - 1)]);
  }

  /**
   * An earlier chunk whose items were only edited in place, under the same names (its bounds are
   * then those a new cut would give): the section's items now at `at`, the edited items' bytes
   * made again and the others' copied, so a one-tool edit serialises one item, not a chunk's 1,024.
   */
  private splicedChunk(section: Section, chunk: Chunk, at: number, edits: readonly ToolEdit<object>[], earlierStart: number): Chunk {
    // Another combination's list may have spliced it already.
    const { key, variants, found } = this.lookUp(section, at);
    if (found !== undefined && sizeOf(found) === sizeOf(chunk)) return found;
    const changed = edits.flatMap((edit) => Array.from({ length: edit.removed }, (_, offset) => edit.from - earlierStart + offset));
    const made = changed.map((position) => encoder.encode(`,${section.jsonOf(at + position)}`));
    let length = chunk.bytes.length;
    changed.forEach((position, index) => {
      length += made[index].length - (chunk.offsets[position + 1] - chunk.offsets[position]);
    });
    const bytes = new Uint8Array(length);
    const offsets = new Uint32Array(chunk.offsets.length);
    let [from, to] = [0, 0];
    const copyUpTo = (position: number) => {
      bytes.set(chunk.bytes.subarray(chunk.offsets[from], chunk.offsets[position]), offsets[from]);
      for (; from < position; from++) offsets[from + 1] = offsets[from] + chunk.offsets[from + 1] - chunk.offsets[from];
      to = offsets[position];
    };
    changed.forEach((position, index) => {
      copyUpTo(position);
      bytes.set(made[index], to);
      offsets[position + 1] = to + made[index].length;
      from = position + 1;
    });
    copyUpTo(sizeOf(chunk));
    const spliced = { ids: section.ids?.ids.slice(at, at + sizeOf(chunk)), bytes, offsets, digest: sha256(bytes) };
    if (key !== undefined) this.keep(key, spliced, variants);
    return spliced;
  }

  /**
   * The three sections of a list: its formatted tools, their annotations and their token counts.
   * The numbers of the final tools stand for the items of all three: each is made from its final
   * tool alone (a formatted tool is, for its format; see formattedTool).
   */
  private sectionsOf(list: ToolList, keep: boolean): [Section, Section, Section] {
    const { final, format } = list;
    const [size, ids] = [final.length, keep ? finalIdentitiesOf(list) : undefined];
    const nameOf = (index: number) => final[index].name;
    return [
      { kind: `tools/${format}`, itemsPerChunk: ITEMS_PER_CHUNK, size, ids, nameOf, jsonOf: (index) => JSON.stringify(list.tools[index]) },
      {
        kind: "annotations",
        itemsPerChunk: SMALL_ITEMS_PER_CHUNK,
        size,
        ids,
        nameOf,
        jsonOf: (index) => JSON.stringify({ name: final[index].name, source: final[index].source, needsApproval: final[index].needsApproval }),
      },
      {
        kind: `tokens/${format}`,
        itemsPerChunk: SMALL_ITEMS_PER_CHUNK,
        size,
        ids,
        nameOf,
        jsonOf: (index) => `${JSON.stringify(final[index].name)}:${definitionTokens(final[index], format)}`,
      },
    ];
  }

  /**
   * The chunks of a list's sections: from the body of the latest list of the same catalog and
   * request when it is kept and few tools changed, else each looked up or made. The token counts
   * are chunked unless a name is an array index (see countsChunkable): no chunks for them then.
   */
  private chunkedSections(list: ToolList): ListBody["sections"] {
    const lineage = lineageKeyOf(list);
    const earlier = lineage && this.latest.peek(lineage.request);
    if (lineage) this.latest.set(lineage.request, list);
    const sections = this.sectionsOf(list, sharedStateOf(list) !== undefined);
    const patched = earlier && this.patchedSections(earlier, list, sections);
    if (patched) return patched;
    return [this.chunksOf(sections[0]), this.chunksOf(sections[1]), countsChunkable(list) ? this.chunksOf(sections[2]) : []];
  }

  /** The sections patched from the earlier list's body (see patchedChunksOf); undefined when it is not kept whole, or too much changed. */
  private patchedSections(earlier: ToolList, list: ToolList, sections: [Section, Section, Section]): ListBody["sections"] | undefined {
    const body = this.listBodies.get(earlier);
    // Counts not chunked before (a name that is an array index) are left to the whole path, which looks at every name.
    if (body === undefined || !isWhole(body) || body.sections[2].length === 0) return undefined;
    const [beforeIds, afterIds] = [finalIdentitiesOf(earlier), finalIdentitiesOf(list)];
    const limit = list.final.length / 4;
    const edits = beforeIds && afterIds ? editsByIdentity<object>(beforeIds, afterIds, list.final, limit) : toolEdits<object>(earlier.final, list.final, limit);
    if (edits === undefined || edits.some((edit) => (edit.inserted as FinalTool[]).some(({ name }) => isIndexName(name)))) return undefined;
    const inPlace = edits.map(
      (edit) =>
        edit.removed === edit.inserted.length && (edit.inserted as FinalTool[]).every(({ name }, offset) => earlier.final[edit.from + offset].name === name),
    );
    return [0, 1, 2].map((index) => this.patchedChunksOf(sections[index], body.sections[index], edits, inPlace)) as ListBody["sections"];
  }

  private bodyOf(list: ToolList): ListBody {
    const cached = this.listBodies.get(list);
    if (cached !== undefined && isWhole(cached)) return cached;
    const sections = this.chunkedSections(list);
    const byTool = sections[2].length > 0 || list.final.length === 0;
    const trace = JSON.stringify(list.trace);
    const joints: ListBody["joints"] = byTool
      ? [encoder.encode(`],"annotations":[`), encoder.encode(`],"trace":${trace},"tokens":{"total":${list.tokens.total},"perTool":{`), encoder.encode("}}}")]
      : [encoder.encode(`],"annotations":[`), encoder.encode(`],"trace":${trace},"tokens":${JSON.stringify(list.tokens)}}`), new Uint8Array(0)];
    const hash = createHash("sha256");
    sections.forEach((chunks, index) => {
      for (const chunk of chunks) hash.update(chunk.digest);
      hash.update(joints[index]);
    });
    const body = { sections, joints, digest: hash.digest("base64url") };
    // Only a frozen list (computeToolList's) cannot change under its bytes.
    if (Object.isFrozen(list)) this.listBodies.set(list, body);
    return body;
  }

  parts(head: ToolListBodyHead, list: ToolList): Uint8Array[] {
    const body = this.bodyOf(list);
    const headJson = JSON.stringify(head);
    const opening = encoder.encode(`${headJson.length > 2 ? `${headJson.slice(0, -1)},` : "{"}"tools":[`);
    const parts: Uint8Array[] = [opening];
    body.sections.forEach((chunks, index) => {
      // Each chunk's bytes begin with a comma, which the first of an array goes without.
      chunks.forEach((chunk, position) => {
        parts.push(position === 0 ? chunk.bytes.subarray(1) : chunk.bytes);
      });
      parts.push(body.joints[index]);
    });
    return parts;
  }

  entityTag(head: ToolListBodyHead, list: ToolList): string {
    return `"${createHash("sha256").update(JSON.stringify(head)).update(this.bodyOf(list).digest).digest("base64url")}"`;
  }

  /** How many chunks are kept, and their bytes. */
  cached(): { chunks: number; bytes: number } {
    let chunks = 0;
    for (const key of this.kept.keys()) chunks += this.kept.peek(key)!.length;
    return { chunks, bytes: this.kept.weight };
  }
}

/** Lists whose bodies the next lists of their catalog and request are made from: 8 combinations in a few formats, of a few catalogs. */
const LATEST_LISTS = 128;

/** Whether none of a body's bytes were transferred away (see isDetached). */
const isWhole = (body: ListBody) => !body.joints.some(isDetached) && !body.sections.some((chunks) => chunks.some((chunk) => isDetached(chunk.bytes)));

/** Whether an edit lies wholly before the earlier items' position `start` (an insertion at `start` does). */
const isBefore = (edit: ToolEdit<object>, start: number) => (edit.removed > 0 ? edit.from + edit.removed <= start : edit.from <= start);

/** Whether an edit removes from the earlier items [start, end), or inserts between two of them. */
const reaches = (edit: ToolEdit<object>, start: number, end: number) =>
  edit.removed > 0 ? edit.from < end && edit.from + edit.removed > start : edit.from > start && edit.from < end;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();

/** Where each item's bytes start in a chunk of these items' JSON, each after a comma; when `ascii`, a string's length is its bytes'. */
function itemOffsets(json: readonly string[], ascii: boolean): Uint32Array {
  const offsets = new Uint32Array(json.length + 1);
  json.forEach((each, index) => {
    offsets[index + 1] = offsets[index] + 1 + (ascii ? each.length : Buffer.byteLength(each));
  });
  return offsets;
}

/** Chunks kept per first item: the lists of the 8 model/agent combinations may each go on differently from it. */
const CHUNK_VARIANTS = 8;

/** Whether a chunk's items are those numbered `ids` from `start` on. */
function holdsAt(chunk: Chunk, ids: Uint32Array, start: number): boolean {
  if (chunk.ids === undefined || start + chunk.ids.length > ids.length) return false;
  for (let index = 0; index < chunk.ids.length; index++) if (chunk.ids[index] !== ids[start + index]) return false;
  return true;
}

/**
 * Whether the token counts serialise tool by tool, as chunks: unless a name is an array index ("0",
 * "42"), which JSON puts first among an object's keys. Names are unique within a catalog (the
 * registry enforces it, see aggregate.ts), so no two counts share a key.
 */
function countsChunkable(list: ToolList): boolean {
  for (const { name } of list.final) if (isIndexName(name)) return false;
  return true;
}

function isIndexName(name: string): boolean {
  const first = name.charCodeAt(0);
  return first >= 48 && first <= 57 && isIndexKey(name);
}

const bodies = new ToolListBodies(TOOL_LIST_BODY_CACHE_BYTES);

/**
 * `JSON.stringify(toolListResponse(head, list))` as runs of UTF-8 bytes: the head's fields, then
 * the list's, shared between requests and lists (never change them). `head` must not use the keys
 * tools, annotations, trace or tokens. Nothing large is copied: in this container a fresh 7 MB
 * buffer alone costs ≈ 25 ms of page faults.
 */
export function toolListBodyParts(head: ToolListBodyHead, list: ToolList): Uint8Array[] {
  return bodies.parts(head, list);
}

/**
 * A strong entity tag of that body: equal exactly when the bytes are, so an agent asking for its
 * list on every turn can send it back in If-None-Match and be answered 304 while nothing changed.
 */
export function toolListEntityTag(head: ToolListBodyHead, list: ToolList): string {
  return bodies.entityTag(head, list);
}

/** The same body as a stream, for `new Response(stream, { headers: { "content-type": "application/json" } })`. */
export function toolListBodyStream(head: ToolListBodyHead, list: ToolList): ReadableStream<Uint8Array> {
  const parts = toolListBodyParts(head, list);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** For tests: what the app's bodies keep. */
export function cachedToolListBodies(): { chunks: number; bytes: number } {
  return bodies.cached();
}
