import { beforeEach, describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/catalogs/[catalog]/import/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { listTools } from "@/db/queries/tools";
import { ToolshedError } from "@/lib/errors";
import { DEFAULT_BODY_LIMIT, ifNoneMatch, readJsonBody } from "@/lib/http";
import { APP_ORIGIN, apiRequest, jsonRequest, params, useFreshDatabase } from "./api/helpers";

const CHUNK = 64 * 1024;

/**
 * A chunked body that would go on for `totalBytes` (200 MB by default), made one chunk per pull,
 * so that `pulled` says how much of it the server asked for.
 */
function endlessBody(totalBytes = 200 * 1024 * 1024, chunk = new Uint8Array(CHUNK).fill(0x20)) {
  const counter = { pulled: 0, cancelled: false };
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        counter.pulled += 1;
        if (sent >= totalBytes) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        counter.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

function streamed(stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}, url = `${APP_ORIGIN}/api`): Request {
  return new Request(url, { method: "POST", body: stream, headers: { "content-type": "application/json", ...headers }, duplex: "half" } as RequestInit);
}

function chunksOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function refusal(promise: Promise<unknown>): Promise<ToolshedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolshedError);
  return error as ToolshedError;
}

describe("readJsonBody", () => {
  it("stops reading a chunked body at the limit and answers too_large", async () => {
    const { stream, counter } = endlessBody();
    const error = await refusal(readJsonBody(streamed(stream)));
    expect(error.code).toBe("too_large");
    expect(error.status).toBe(413);
    expect(error.message).toContain(String(DEFAULT_BODY_LIMIT));
    // 256 KiB in 64 KiB chunks: the fifth chunk passes the limit; never the 3,200 chunks sent.
    expect(counter.pulled).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT / CHUNK + 2);
    expect(counter.cancelled).toBe(true);
  });

  it("counts what arrives, not what Content-Length claims", async () => {
    const { stream, counter } = endlessBody();
    const error = await refusal(readJsonBody(streamed(stream, { "content-length": "10" })));
    expect(error.code).toBe("too_large");
    expect(counter.pulled).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT / CHUNK + 2);
  });

  it("refuses a declared Content-Length above the limit without reading the body", async () => {
    const { stream, counter } = endlessBody();
    const error = await refusal(readJsonBody(streamed(stream, { "content-length": String(DEFAULT_BODY_LIMIT + 1) })));
    expect(error.code).toBe("too_large");
    expect(error.message).toBe(`The request body is ${DEFAULT_BODY_LIMIT + 1} bytes; the limit is ${DEFAULT_BODY_LIMIT}.`);
    expect(counter.pulled).toBe(0);
  });

  it("takes a body of exactly the limit, and a smaller limit when asked", async () => {
    const exact = `"${"x".repeat(DEFAULT_BODY_LIMIT - 2)}"`;
    expect(((await readJsonBody(streamed(chunksOf(exact, 10_000)))) as string).length).toBe(DEFAULT_BODY_LIMIT - 2);
    const error = await refusal(readJsonBody(streamed(chunksOf('{"a": 1234567890}', 4)), 8));
    expect(error.code).toBe("too_large");
  });

  it("decodes UTF-8 split across chunks and drops a byte-order mark, like request.text()", async () => {
    const text = '\uFEFF{"name": "café ☕ 𝄞"}';
    expect(await readJsonBody(streamed(chunksOf(text, 1)))).toEqual({ name: "café ☕ 𝄞" });
  });

  it("still tells an empty body and malformed JSON apart (400)", async () => {
    expect((await refusal(readJsonBody(new Request(`${APP_ORIGIN}/api`, { method: "POST" })))).code).toBe("bad_request");
    expect((await refusal(readJsonBody(new Request(`${APP_ORIGIN}/api`, { method: "POST", body: "  " })))).message).toContain("empty");
    expect((await refusal(readJsonBody(new Request(`${APP_ORIGIN}/api`, { method: "POST", body: "{nope" })))).message).toContain("not valid JSON");
  });
});

describe("routes refuse oversized chunked bodies while streaming", () => {
  let db: Awaited<ReturnType<typeof useFreshDatabase>>;
  beforeEach(async () => {
    db = await useFreshDatabase();
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Demo" }))).status).toBe(201);
  });

  it("a 200 MB chunked body to a 256 KiB route: 413 in the error shape after a few chunks, nothing written", async () => {
    const { stream, counter } = endlessBody();
    const request = apiRequest("/api/catalogs/demo/tools", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    const before = (await listTools(db, "demo")).length;
    const response = await toolsRoute.POST(request, params({ catalog: "demo" }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: "too_large", message: `The request body exceeds ${DEFAULT_BODY_LIMIT} bytes; the limit is ${DEFAULT_BODY_LIMIT}.` },
    });
    expect(counter.pulled).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT / CHUNK + 2);
    expect((await listTools(db, "demo")).length).toBe(before);
  });

  it("the import route stops at its own, larger limit, long before the 200 MiB sent", async () => {
    const { stream, counter } = endlessBody(200 * 1024 * 1024, new Uint8Array(1024 * 1024).fill(0x20));
    const request = apiRequest("/api/catalogs/demo/import", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    const response = await importRoute.POST(request, params({ catalog: "demo" }));
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("too_large");
    // 1 MiB chunks: the import limit is tens of MiB, so the reader stops well before chunk 200.
    expect(counter.pulled).toBeLessThan(100);
    expect(counter.cancelled).toBe(true);
  });
});

describe("ifNoneMatch", () => {
  it("compares entity tags weakly, in a list or as *", async () => {
    expect(ifNoneMatch(null, '"a"')).toBe(false);
    expect(ifNoneMatch('"a"', '"a"')).toBe(true);
    expect(ifNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatch(' "b" , W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatch("*", '"a"')).toBe(true);
    expect(ifNoneMatch('"b"', '"a"')).toBe(false);
    expect(ifNoneMatch('"a', '"a"')).toBe(false);
  });
});
