import { catalogRoute } from "@/app/_services/access";
import { catalogState } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { toolListBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";
import { computeToolList } from "@/lib/pipeline/tool-list";
import { toolListBodyStream } from "@/lib/pipeline/tool-list-body";

// The body is megabytes at catalog scale (≈ 7 MB at 10,000 tools) and the same bytes for every
// caller of one list, so it is streamed from bytes kept per list. `no-transform` keeps the
// server from gzipping those megabytes again on every answer (≈ 70 ms at 10,000 tools); a route
// handler cannot send bytes compressed in advance (Next drops its Content-Encoding).
const HEADERS = { "content-type": "application/json", "cache-control": "no-store, no-transform" };

export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params }) => {
    const body = parseWith(toolListBody, await readJsonBody(request));
    const state = await catalogState(getDb(), params.catalog);
    const list = computeToolList(state, body);
    const head = {
      catalog: params.catalog,
      revision: state.revision,
      model: body.model,
      agent: body.agent,
      provider: list.provider ?? null,
      mode: list.mode,
      format: list.format,
    };
    return new Response(toolListBodyStream(head, list), { headers: HEADERS });
  },
  { limit: "read" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
