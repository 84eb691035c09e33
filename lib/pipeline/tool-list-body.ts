import { createHash } from "node:crypto";
import { Lru } from "../tools/lru";
import { sharedStateOf, type CatalogState, type ToolList } from "./tool-list";

// The answer of POST …/tool-list is the whole visible list: ≈ 7 MB of JSON at 10,000 tools with
// ordinary schemas, ≈ 36 MB at 50,000. Serialising it again on every request costs more than all
// the rest of the request (≈ 560 ms at 50,000 tools), so it is kept as UTF-8 bytes; only the few
// fields before it are serialised per request. The bytes are exactly those of JSON.stringify.
//
// The lists of one catalog state differ in a handful of tools from one model/agent combination to
// the next, so the tools' bytes are kept once for all of them: a list's tools are cut into runs of
// tools of one block of TOOLS_PER_BLOCK consecutive tools of the state, each handed over with the
// state's own definition (name, description and input schema, all a formatted tool is made of),
// kept under a key made of the state, the format and the positions of its tools, which determines
// its bytes. Tools a list changes (an override, a plugin hook, the `task` listing) are bytes of
// that list alone, as are the annotations, trace and token counts.

/** The bytes kept for all lists: shared runs of tools and each list's own parts. */
export const TOOL_LIST_BODY_CACHE_BYTES = 320 * 1024 * 1024;
/** Tools of a state per block: runs are at most this long, so a tool one list changes costs it about a block's bytes. */
export const TOOLS_PER_BLOCK = 256;

const encoder = new TextEncoder();

/** Tools start to end of a list, whose bytes are kept under key, the same for every list that hands them over. */
interface SharedRun {
  key: string;
  start: number;
  end: number;
}

/**
 * A list's part of the body: its runs of tools, each as bytes with a leading comma, the bytes after
 * the tools (annotations, trace, tokens), and a digest of all these bytes, which entity tags are made of.
 */
interface ListBody {
  runs: (SharedRun | Uint8Array)[];
  closing: Uint8Array;
  digest: string;
  ownBytes: number;
}

/** Per shared state: a serial number for the keys of its runs, and each tool's position by name. */
const stateIndexes = new WeakMap<CatalogState, { serial: number; positions: Map<string, number> }>();
let nextSerial = 0;

function stateIndex(state: CatalogState) {
  let index = stateIndexes.get(state);
  if (index === undefined) {
    index = { serial: nextSerial++, positions: new Map(state.tools.map((tool, position) => [tool.name, position])) };
    stateIndexes.set(state, index);
  }
  return index;
}

/** `,` and the JSON of tools start to end, as they stand in the tools array. */
function toolBytes(list: ToolList, start: number, end: number): Uint8Array {
  return encoder.encode(`,${JSON.stringify(list.tools.slice(start, end)).slice(1, -1)}`);
}

const isDetached = (bytes: Uint8Array) => bytes.buffer.byteLength === 0;

/**
 * The runs of a list's tools: shared where a tool hands over the definition of the state's tool of
 * its name, its own bytes where the list changed it. The catalog's order survives the pipeline, so
 * a list that changes nothing is a shared run per block.
 */
function runsOf(list: ToolList): (SharedRun | Uint8Array)[] {
  const state = sharedStateOf(list);
  if (state === undefined) return list.tools.length > 0 ? [toolBytes(list, 0, list.tools.length)] : [];
  const { serial, positions } = stateIndex(state);
  const runs: (SharedRun | Uint8Array)[] = [];
  let ownStart = -1;
  let shared: { block: number; start: number; last: number; ranges: string } | undefined;
  const closeShared = (end: number) => {
    if (shared === undefined) return;
    runs.push({ key: `${serial}:${list.format}:${shared.ranges}-${shared.last}`, start: shared.start, end });
    shared = undefined;
  };
  list.final.forEach((tool, index) => {
    const position = positions.get(tool.name);
    // toProviderTool formats the name, description and input schema, nothing else.
    const source = position === undefined ? undefined : state.tools[position];
    if (position === undefined || source?.description !== tool.description || source?.inputSchema !== tool.inputSchema) {
      closeShared(index);
      if (ownStart < 0) ownStart = index;
      return;
    }
    if (ownStart >= 0) {
      runs.push(toolBytes(list, ownStart, index));
      ownStart = -1;
    }
    const block = Math.floor(position / TOOLS_PER_BLOCK);
    if (shared !== undefined && (shared.block !== block || position <= shared.last)) closeShared(index);
    if (shared === undefined) shared = { block, start: index, last: position, ranges: String(position) };
    else if (position !== shared.last + 1) shared.ranges += `-${shared.last}.${position}`;
    shared.last = position;
  });
  closeShared(list.final.length);
  if (ownStart >= 0) runs.push(toolBytes(list, ownStart, list.final.length));
  return runs;
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
 * Tool-list bodies kept as bytes within a byte budget: the shared runs of tools and each list's
 * own parts, least recently used first out. The app keeps one (the functions below).
 */
export class ToolListBodies {
  private readonly kept: Lru<ToolList | string, ListBody | Uint8Array>;

  constructor(private readonly maxBytes: number) {
    this.kept = new Lru({
      // Bounded by bytes; the count only keeps the map from growing with tiny entries.
      maxEntries: 100_000,
      maxWeight: maxBytes,
      weigh: (value) => (value instanceof Uint8Array ? value.length : value.ownBytes),
    });
  }

  private sharedBytes(list: ToolList, run: SharedRun): Uint8Array {
    const cached = this.kept.get(run.key) as Uint8Array | undefined;
    // A consumer that transferred a buffer (a byte stream may) leaves it detached: build it again.
    if (cached !== undefined && !isDetached(cached)) return cached;
    const bytes = toolBytes(list, run.start, run.end);
    this.kept.set(run.key, bytes);
    return bytes;
  }

  private bodyOf(list: ToolList): ListBody {
    const cached = this.kept.get(list) as ListBody | undefined;
    if (cached !== undefined && !isDetached(cached.closing) && !cached.runs.some((run) => run instanceof Uint8Array && isDetached(run))) return cached;
    const runs = runsOf(list);
    // `],"annotations":…}`: what follows the tools' array.
    const closing = encoder.encode(`],${JSON.stringify(listFields(list)).slice(1)}`);
    const hash = createHash("sha256");
    for (const bytes of this.runBytes(list, runs)) hash.update(bytes);
    const ownBytes = runs.reduce((sum, run) => sum + (run instanceof Uint8Array ? run.length : 0), closing.length);
    const body = { runs, closing, digest: hash.update(closing).digest("base64url"), ownBytes };
    // Only a frozen list (computeToolList's) cannot change under its bytes. A list too large for
    // eight of its kind to fit (8 model/agent combinations in turn) would only push the others out.
    if (Object.isFrozen(list) && ownBytes <= this.maxBytes / 8) this.kept.set(list, body);
    return body;
  }

  /** The runs' bytes in order, the first without its leading comma. */
  private runBytes(list: ToolList, runs: ListBody["runs"]): Uint8Array[] {
    const bytes = runs.map((run) => (run instanceof Uint8Array ? run : this.sharedBytes(list, run)));
    if (bytes.length > 0) bytes[0] = bytes[0].subarray(1);
    return bytes;
  }

  parts(head: ToolListBodyHead, list: ToolList): Uint8Array[] {
    const body = this.bodyOf(list);
    const headJson = JSON.stringify(head);
    const opening = encoder.encode(`${headJson.length > 2 ? `${headJson.slice(0, -1)},` : "{"}"tools":[`);
    return [opening, ...this.runBytes(list, body.runs), body.closing];
  }

  entityTag(head: ToolListBodyHead, list: ToolList): string {
    return `"${createHash("sha256").update(JSON.stringify(head)).update(this.bodyOf(list).digest).digest("base64url")}"`;
  }

  /** How many lists and shared runs are kept, and their bytes. */
  cached(): { lists: number; sharedRuns: number; bytes: number } {
    let lists = 0;
    for (const key of this.kept.keys()) if (typeof key !== "string") lists++;
    return { lists, sharedRuns: this.kept.size - lists, bytes: this.kept.weight };
  }
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
export function cachedToolListBodies(): { lists: number; sharedRuns: number; bytes: number } {
  return bodies.cached();
}
