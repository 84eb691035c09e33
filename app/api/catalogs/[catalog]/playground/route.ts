import { catalogRoute } from "@/app/_services/access";
import { playTurn } from "@/app/_services/playground";
import { getDb } from "@/db/client";
import { playgroundBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

const BODY_LIMIT = 1024 * 1024;

/** One playground exchange, streamed as NDJSON events (see lib/playground/events.ts). */
export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params, access }) => {
    const body = parseWith(playgroundBody, await readJsonBody(request, BODY_LIMIT));
    const stream = await playTurn(getDb(), params.catalog, body, { upstreamDetails: access === "admin", signal: request.signal });
    return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
  },
  { limit: "model" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
