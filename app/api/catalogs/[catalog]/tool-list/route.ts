import { catalogRoute } from "@/app/_services/access";
import { catalogState } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { toolListBody } from "@/lib/api-schemas";
import { acceptsGzip, parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";
import { computeToolList } from "@/lib/pipeline/tool-list";
import { toolListBodyGzip, toolListBodyStream } from "@/lib/pipeline/tool-list-body";

// The body is megabytes at catalog scale and the same for every caller of one list, so it is
// served from bytes kept per list (gzipped once when the caller accepts gzip); `no-transform`
// keeps the server's per-request compression from redoing that work on every answer.
const HEADERS = { "content-type": "application/json", "cache-control": "no-store, no-transform", vary: "accept-encoding" };

export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params }) => {
    const body = parseWith(toolListBody, await readJsonBody(request));
    const state = await catalogState(getDb(), params.catalog);
    const list = computeToolList(state, body);
    const head = { catalog: params.catalog, revision: state.revision, model: body.model, agent: body.agent, provider: list.provider ?? null, mode: list.mode, format: list.format };
    if (acceptsGzip(request)) return new Response(await toolListBodyGzip(head, list), { headers: { ...HEADERS, "content-encoding": "gzip" } });
    return new Response(toolListBodyStream(head, list), { headers: HEADERS });
  },
  { limit: "read" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
