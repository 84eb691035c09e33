import { createUIMessageStreamResponse } from "ai";
import { catalogRoute } from "@/app/_services/access";
import { playTurn } from "@/app/_services/playground";
import { getDb } from "@/db/client";
import { playgroundBody } from "@/lib/api-schemas";
import { principalKey } from "@/lib/auth/policy";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

const BODY_LIMIT = 1024 * 1024;

/** One playground exchange, streamed as an AI SDK UI message stream (server-sent events; see playTurn). */
export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params, principal, access }) => {
    const body = parseWith(playgroundBody, await readJsonBody(request, BODY_LIMIT));
    const stream = await playTurn(getDb(), params.catalog, body, {
      owner: principalKey(principal),
      principal,
      upstreamDetails: access === "admin",
      signal: request.signal,
    });
    return createUIMessageStreamResponse({ stream, headers: { "cache-control": "no-store" } });
  },
  { limit: "model" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
