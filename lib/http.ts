import type { z } from "zod";
import { ToolshedError } from "./errors";
import { log } from "./observability/log";

export const DEFAULT_BODY_LIMIT = 256 * 1024;

/**
 * Reads a request body as UTF-8 text, at most `maxBytes` of it: a declared Content-Length above
 * the limit is refused before reading, and the stream is counted as it arrives and cancelled the
 * moment it passes the limit (chunked bodies, and a Content-Length that understates), so an
 * oversized body is never held in memory whole.
 */
export async function readBodyText(request: Request, maxBytes = DEFAULT_BODY_LIMIT): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(`is ${declared} bytes`, maxBytes);
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(`exceeds ${maxBytes} bytes`, maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  // Like request.text(): invalid sequences become U+FFFD and a byte-order mark is dropped.
  return new TextDecoder().decode(Buffer.concat(chunks, received));
}

/** Reads a JSON body, refusing oversized (413, while reading) and malformed (400) ones. */
export async function readJsonBody(request: Request, maxBytes = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (!text.trim()) throw new ToolshedError("bad_request", "The request body is empty; JSON was expected.");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolshedError("bad_request", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function tooLarge(size: string, maxBytes: number): ToolshedError {
  return new ToolshedError("too_large", `The request body ${size}; the limit is ${maxBytes}.`);
}

/** Parses with a zod schema, turning the first issue into an error that names its field. */
/**
 * Whether an If-None-Match header names this entity tag (or is `*`), compared weakly as HTTP says
 * for GET and HEAD revalidation (RFC 9110 §13.1.2): a `W/` prefix on either side is ignored.
 */
export function ifNoneMatch(header: string | null, entityTag: string): boolean {
  if (header === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.trim() === "*" || header.split(",").some((tag) => opaque(tag) === opaque(entityTag));
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => ({
    field: issue.path.join(".") || "body",
    message: issue.message,
  }));
  throw ToolshedError.fromFieldErrors(problems, "Invalid request");
}

/** Wraps a route handler: typed errors become their JSON response, anything else a logged 500. */
export function handle<A extends unknown[]>(handler: (...args: A) => Promise<Response> | Response) {
  return async (...args: A): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof ToolshedError) return error.toResponse();
      log.error({ err: error }, "Internal error answering a request");
      return Response.json({ error: { code: "internal", message: "Internal error: the server log has details." } }, { status: 500 });
    }
  };
}

const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * Handlers for the methods a route file does not implement. Next answers those with an empty 405;
 * these answer in the JSON error shape, with an `Allow` header naming what the path does answer
 * (HEAD and OPTIONS as Next adds them). At the end of every route file under app/api:
 * `export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });`
 */
export function refuseOtherMethods<Implemented extends Partial<Record<RouteMethod, unknown>>>(
  implemented: Implemented,
): Record<Exclude<RouteMethod, keyof Implemented>, (request: Request) => Response> {
  const names = Object.keys(implemented);
  const allow = [...names, ...(names.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
  const refuse = (request: Request) => {
    const response = new ToolshedError("method_not_allowed", `${request.method} is not allowed here; this path answers ${allow}.`).toResponse();
    response.headers.set("allow", allow);
    return response;
  };
  const refused = ROUTE_METHODS.filter((method) => !names.includes(method)).map((method) => [method, refuse]);
  return Object.fromEntries(refused) as Record<Exclude<RouteMethod, keyof Implemented>, (request: Request) => Response>;
}

/** A page's `searchParams` (Next gives repeated names as arrays) as URLSearchParams, in their order. */
export function searchParamsOf(params: Record<string, string | string[] | undefined>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const one of ([] as string[]).concat(value ?? [])) query.append(name, one);
  return query;
}
