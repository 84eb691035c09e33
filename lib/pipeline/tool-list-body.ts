import { createHash } from "node:crypto";
import { definitionTokens } from "../formats/tokens";
import { Lru } from "../tools/lru";
import { sharedStateOf, type ToolList } from "./tool-list";

// The answer of POST …/tool-list is the whole visible list: ≈ 7 MB of JSON at 10,000 tools with
// ordinary schemas, ≈ 36 MB at 50,000. Serialising it again on every request costs more than all
// the rest of the request (≈ 560 ms at 50,000 tools), so it is kept as UTF-8 bytes; only the few
// fields before it are serialised per request. The bytes are exactly those of JSON.stringify.
//
// A list's long arrays (its formatted tools, their annotations, their token counts) are cut into
// chunks of consecutive items, each kept as bytes with its digest under its first item's object
// and reused by every list that holds the same items in a row: the lists of the model/agent
// combinations, and the lists of the next catalog revision, whose unchanged tools are the same
// objects (lib/pipeline/ledger.ts). A chunk ends after an item whose name hashes to a boundary, so
// chunks start at the same tools in every list: a tool one list leaves out or a revision edits
// costs the chunk around it, not the rest of the list. The entity tag is made of the chunks'
// digests, so it too costs the changed chunks.

/** The bytes kept for all lists: chunks and each list's own parts. */
export const TOOL_LIST_BODY_CACHE_BYTES = 320 * 1024 * 1024;
/** One name in this many ends a chunk: chunks hold about this many items. */
export const ITEMS_PER_CHUNK = 128;
/** A chunk holds at most this many items, whatever the names. */
const MAX_CHUNK_ITEMS = 4 * ITEMS_PER_CHUNK;

const encoder = new TextEncoder();

/** Consecutive items of a list as JSON, each with a leading comma, and the digest of those bytes. */
interface Chunk {
  items: readonly object[];
  bytes: Uint8Array;
  digest: Uint8Array;
}

/** A list's own part of the body: its chunks and the bytes between them, and a digest of it all, which entity tags are made of. */
interface ListBody {
  /** Chunks of the tools, of the annotations and of the token counts, in that order. */
  sections: [Chunk[], Chunk[], Chunk[]];
  /** `],"annotations":[`, `],"trace":…,"tokens":{"total":…,"perTool":{` and `}}}`, or the whole rest for a list whose token counts are not chunked. */
  joints: [Uint8Array, Uint8Array, Uint8Array];
  digest: string;
  ownBytes: number;
}

const isDetached = (bytes: Uint8Array) => bytes.buffer.byteLength === 0;

/** FNV-1a of a name: whether its item ends a chunk depends on the name alone. */
function endsChunk(name: string): boolean {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
  return (hash >>> 0) % ITEMS_PER_CHUNK === 0;
}

/** An array index as a key ("0", "42"): JSON.stringify puts such keys of an object first, in numeric order. */
const isIndexKey = (name: string) => /^(?:0|[1-9]\d{0,8})$/.test(name);

/** One of a list's long arrays: its items, their names (which cut the chunks) and each item's JSON. */
interface Section {
  kind: string;
  items: readonly object[];
  nameOf: (index: number) => string;
  jsonOf: (index: number) => string;
}

/** Each object's number, for keys of chunks that begin with it: a chunk is looked up by the identity of its first item. */
const objectNumbers = new WeakMap<object, number>();
let nextObjectNumber = 0;

function objectNumber(item: object): number {
  let number = objectNumbers.get(item);
  if (number === undefined) {
    number = nextObjectNumber++;
    objectNumbers.set(item, number);
  }
  return number;
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
 * Tool-list bodies kept as bytes within a byte budget: the chunks and each list's own parts, least
 * recently used first out. The app keeps one (the functions below).
 */
export class ToolListBodies {
  private readonly kept: Lru<ToolList | string, ListBody | Chunk[]>;

  constructor(private readonly maxBytes: number) {
    this.kept = new Lru({
      // Bounded by bytes; the count only keeps the map from growing with tiny entries.
      maxEntries: 200_000,
      maxWeight: maxBytes,
      weigh: (value) => (Array.isArray(value) ? value.reduce((sum, chunk) => sum + chunk.bytes.length, 0) : value.ownBytes),
    });
  }

  /**
   * The chunks of a section, those kept reused where the same items follow in a row, the others
   * made and, when `keep` (the items are a shared state's, which never change), kept.
   */
  private chunksOf({ kind, items, nameOf, jsonOf }: Section, keep: boolean): Chunk[] {
    const chunks: Chunk[] = [];
    let start = 0;
    while (start < items.length) {
      const key = `${kind}:${objectNumber(items[start])}`;
      const variants = keep ? ((this.kept.get(key) as Chunk[] | undefined) ?? []) : [];
      let chunk = variants.find((each) => !isDetached(each.bytes) && holdsAt(each, items, start));
      if (chunk === undefined) {
        let end = start + 1;
        while (end < items.length && end - start < MAX_CHUNK_ITEMS && !endsChunk(nameOf(end - 1))) end++;
        const json: string[] = [];
        for (let index = start; index < end; index++) json.push(jsonOf(index));
        const bytes = encoder.encode(`,${json.join(",")}`);
        chunk = { items: items.slice(start, end), bytes, digest: createHash("sha256").update(bytes).digest() };
        // The lists of other combinations may go on differently from the same item: a few variants each.
        if (keep) this.kept.set(key, [chunk, ...variants.filter((each) => !isDetached(each.bytes)).slice(0, CHUNK_VARIANTS - 1)]);
      }
      chunks.push(chunk);
      start += chunk.items.length;
    }
    return chunks;
  }

  private bodyOf(list: ToolList): ListBody {
    const cached = this.kept.get(list) as ListBody | undefined;
    if (cached !== undefined && !cached.joints.some(isDetached) && !cached.sections.some((chunks) => chunks.some((chunk) => isDetached(chunk.bytes)))) {
      return cached;
    }
    const { final, format } = list;
    const byTool = countsChunkable(list);
    // Only a shared (frozen) state's tools cannot change under bytes kept for them.
    const keep = sharedStateOf(list) !== undefined;
    const sections: ListBody["sections"] = [
      this.chunksOf(
        {
          kind: `tools/${format}`,
          items: list.tools as object[],
          nameOf: (index) => final[index].name,
          jsonOf: (index) => JSON.stringify(list.tools[index]),
        },
        keep,
      ),
      this.chunksOf(
        {
          kind: "annotations",
          items: final,
          nameOf: (index) => final[index].name,
          jsonOf: (index) => JSON.stringify({ name: final[index].name, source: final[index].source, needsApproval: final[index].needsApproval }),
        },
        keep,
      ),
      byTool
        ? this.chunksOf(
            {
              kind: `tokens/${format}`,
              items: final,
              nameOf: (index) => final[index].name,
              jsonOf: (index) => `${JSON.stringify(final[index].name)}:${definitionTokens(final[index], format)}`,
            },
            keep,
          )
        : [],
    ];
    const trace = JSON.stringify(list.trace);
    const joints: ListBody["joints"] = byTool
      ? [encoder.encode(`],"annotations":[`), encoder.encode(`],"trace":${trace},"tokens":{"total":${list.tokens.total},"perTool":{`), encoder.encode("}}}")]
      : [encoder.encode(`],"annotations":[`), encoder.encode(`],"trace":${trace},"tokens":${JSON.stringify(list.tokens)}}`), new Uint8Array(0)];
    const hash = createHash("sha256");
    sections.forEach((chunks, index) => {
      for (const chunk of chunks) hash.update(chunk.digest);
      hash.update(joints[index]);
    });
    const ownBytes = joints.reduce((sum, joint) => sum + joint.length, 0);
    const body = { sections, joints, digest: hash.digest("base64url"), ownBytes };
    // Only a frozen list (computeToolList's) cannot change under its bytes. A list too large for
    // eight of its kind to fit (8 model/agent combinations in turn) would only push the others out.
    if (Object.isFrozen(list) && ownBytes <= this.maxBytes / 8) this.kept.set(list, body);
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

  /** How many lists and chunks are kept, and their bytes. */
  cached(): { lists: number; chunks: number; bytes: number } {
    let lists = 0;
    let chunks = 0;
    for (const key of this.kept.keys()) {
      if (typeof key !== "string") lists++;
      else chunks += (this.kept.peek(key) as Chunk[]).length;
    }
    return { lists, chunks, bytes: this.kept.weight };
  }
}

/** Chunks kept per first item: the lists of the 8 model/agent combinations may each go on differently from it. */
const CHUNK_VARIANTS = 8;

/** Whether a chunk's items follow in `items` from `start`, object for object. */
function holdsAt(chunk: Chunk, items: readonly object[], start: number): boolean {
  if (start + chunk.items.length > items.length) return false;
  for (let index = 0; index < chunk.items.length; index++) if (chunk.items[index] !== items[start + index]) return false;
  return true;
}

/**
 * Whether the token counts serialise tool by tool, as chunks: unless a name is an array index ("0",
 * "42"), which JSON puts first among an object's keys. Names are unique within a catalog (the
 * registry enforces it, see aggregate.ts), so no two counts share a key.
 */
function countsChunkable(list: ToolList): boolean {
  for (const { name } of list.final) {
    const first = name.charCodeAt(0);
    if (first >= 48 && first <= 57 && isIndexKey(name)) return false;
  }
  return true;
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
export function cachedToolListBodies(): { lists: number; chunks: number; bytes: number } {
  return bodies.cached();
}
