import { catalogRoute } from "@/app/_services/access";
import { readToolList } from "@/app/_services/tool-list";
import { getDb } from "@/db/client";
import { toolListBody } from "@/lib/api-schemas";
import { ifNoneMatch, parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";
import type { ToolListRequest } from "@/lib/pipeline/tool-list";
import { toolListBodyStream, toolListEntityTag } from "@/lib/pipeline/tool-list-body";

// The body is megabytes at catalog scale (≈ 7 MB at 10,000 tools) and the same bytes for every
// caller of one list, so it is streamed from bytes kept per list. `no-transform` keeps the
// server from gzipping those megabytes again on every answer (≈ 70 ms at 10,000 tools); a route
// handler cannot send bytes compressed in advance (Next drops its Content-Encoding). The entity
// tag lets a caller that asks every turn (GET) be answered 304 while its list is unchanged.
const HEADERS = { "content-type": "application/json", "cache-control": "private, no-cache, no-transform" };

async function answer(catalogId: string, request: ToolListRequest, conditional: string | null): Promise<Response> {
  const { head, list } = await readToolList(getDb(), catalogId, request);
  const headers = { ...HEADERS, etag: toolListEntityTag(head, list) };
  if (ifNoneMatch(conditional, headers.etag)) return new Response(null, { status: 304, headers });
  return new Response(toolListBodyStream(head, list), { headers });
}

/** `?model=…&agent=…[&provider=…&mode=…&format=…&flags=a&flags=b]`; If-None-Match → 304 while unchanged. */
export const GET = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params }) => {
    const query = new URL(request.url).searchParams;
    const fields: Record<string, unknown> = Object.fromEntries(query);
    if (query.has("flags")) fields.flags = query.getAll("flags");
    return answer(params.catalog, parseWith(toolListBody, fields), request.headers.get("if-none-match"));
  },
  { limit: "read" },
);

/** The same list for a JSON body; never 304 (a condition on POST is about changing something). */
export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params }) => answer(params.catalog, parseWith(toolListBody, await readJsonBody(request)), null),
  { limit: "read" },
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
