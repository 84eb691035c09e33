import { catalogRoute, enforceRateLimit } from "@/app/_services/access";
import { runPreselection, selectorCallsModel } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { preselectBody } from "@/lib/api-schemas";
import { principalKey } from "@/lib/auth/policy";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

const BODY_LIMIT = 1024 * 1024;

export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params, principal }) => {
    const body = parseWith(preselectBody, await readJsonBody(request, BODY_LIMIT));
    if (selectorCallsModel(body.selector)) await enforceRateLimit(principal, "model");
    const result = await runPreselection(getDb(), params.catalog, body, principalKey(principal));
    return Response.json({
      conversationId: result.conversationId,
      selected: result.selected,
      toolSet: result.toolSet,
      rejected: result.rejected,
      dropped: result.dropped,
      selector: result.selection.selector,
      fallback: result.selection.fallback ?? null,
      decisionId: result.decisionId,
      revision: result.revision,
      tokens: result.tokens,
      latencyMs: result.latencyMs,
    });
  },
  { limit: "read" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
