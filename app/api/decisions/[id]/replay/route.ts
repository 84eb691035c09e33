import { enforceRateLimit, requireDecisionAccess, signedInRoute } from "@/app/_services/access";
import { replayDecisionById } from "@/app/_services/replay";
import { selectorCallsModel } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { replayBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

const BODY_LIMIT = 16 * 1024;

/** The body is optional: none (or an empty one) replays with the decision's own selector. */
async function optionalBody(request: Request): Promise<unknown> {
  const declared = request.headers.get("content-length");
  if (request.body === null || declared === "0") return {};
  if (Number(declared) > BODY_LIMIT) return readJsonBody(request, BODY_LIMIT);
  const text = await request.clone().text();
  if (!text.trim()) return {};
  return readJsonBody(request, BODY_LIMIT);
}

export const POST = signedInRoute<{ id: string }>(
  async ({ request, params, principal }) => {
    await requireDecisionAccess(principal, params.id);
    const body = parseWith(replayBody, await optionalBody(request));
    if (selectorCallsModel(body.selector)) await enforceRateLimit(principal, "model");
    return Response.json(await replayDecisionById(getDb(), params.id, body));
  },
  { limit: "read" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
