import { createHash } from "node:crypto";
import { Lru } from "../tools/lru";
import type { ToolList } from "./tool-list";

// The answer of POST …/tool-list is the whole visible list: ≈ 7 MB of JSON at 10,000 tools with
// ordinary schemas, ≈ 36 MB at 50,000. Serialising it again on every request costs more than all
// the rest of the request (≈ 560 ms at 50,000 tools), so the part that comes from the list (tools,
// annotations, trace, tokens) is kept as UTF-8 bytes per shared tool list, within a byte budget
// that holds the 8 model/agent combinations of a 50,000-tool catalog (bodies of up to an eighth
// of it: 40 MiB); only the few fields before it are serialised per request. The bytes are
// exactly those of JSON.stringify.

export const TOOL_LIST_BODY_CACHE_BYTES = 320 * 1024 * 1024;

const encoder = new TextEncoder();
/** A list's bytes and a digest of them, which entity tags are made from. */
interface Tail {
  bytes: Uint8Array;
  digest: string;
}

const tails = new Lru<ToolList, Tail>({ maxEntries: 64, maxWeight: TOOL_LIST_BODY_CACHE_BYTES, weigh: (tail) => tail.bytes.length });

/** The fields the route answers before the list's own, e.g. { catalog, revision, model, agent, provider, mode, format }. */
export type ToolListBodyHead = Record<string, unknown>;

/**
 * The answer of POST …/tool-list as an object: the head's fields, then the formatted tools, each
 * final tool's `{ name, source, needsApproval }`, the trace and the token counts.
 */
export function toolListResponse<Head extends ToolListBodyHead>(head: Head, list: ToolList) {
  return {
    ...head,
    tools: list.tools,
    annotations: list.final.map(({ name, source, needsApproval }) => ({ name, source, needsApproval })),
    trace: list.trace,
    tokens: list.tokens,
  };
}

function tailOf(list: ToolList): Tail {
  const cached = tails.get(list);
  // A consumer that transferred the buffer (a byte stream may) leaves it detached: build it again.
  if (cached !== undefined && cached.bytes.buffer.byteLength > 0) return cached;
  // `{"tools":…}` without its opening brace: the head's fields go before it.
  const bytes = encoder.encode(JSON.stringify(toolListResponse({}, list)).slice(1));
  const tail = { bytes, digest: createHash("sha256").update(bytes).digest("base64url") };
  // Only a frozen list (computeToolList's) cannot change under its bytes. A body too large for
  // eight of its kind to fit (8 model/agent combinations in turn) would only push the others out.
  if (Object.isFrozen(list) && bytes.length <= TOOL_LIST_BODY_CACHE_BYTES / 8) tails.set(list, tail);
  return tail;
}

/**
 * `JSON.stringify(toolListResponse(head, list))` as two runs of UTF-8 bytes: the head's fields,
 * then the list's, shared between requests (never change them). `head` must not use the keys
 * tools, annotations, trace or tokens. Nothing large is copied: in this container a fresh 7 MB
 * buffer alone costs ≈ 25 ms of page faults.
 */
export function toolListBodyParts(head: ToolListBodyHead, list: ToolList): [Uint8Array, Uint8Array] {
  const headJson = JSON.stringify(head);
  return [encoder.encode(headJson.length > 2 ? `${headJson.slice(0, -1)},` : "{"), tailOf(list).bytes];
}

/**
 * A strong entity tag of that body: equal exactly when the bytes are, so an agent asking for its
 * list on every turn can send it back in If-None-Match and be answered 304 while nothing changed.
 */
export function toolListEntityTag(head: ToolListBodyHead, list: ToolList): string {
  return `"${createHash("sha256").update(JSON.stringify(head)).update(tailOf(list).digest).digest("base64url")}"`;
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

/** For tests: how many list bodies are kept, and their bytes. */
export function cachedToolListBodies(): { entries: number; bytes: number } {
  return { entries: tails.size, bytes: tails.weight };
}
