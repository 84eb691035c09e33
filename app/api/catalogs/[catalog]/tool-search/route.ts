import { catalogRoute, enforceRateLimit } from "@/app/_services/access";
import { runToolSearchCall, selectorCallsModel } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { toolSearchBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

const BODY_LIMIT = 1024 * 1024;

export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params, principal }) => {
    const body = parseWith(toolSearchBody, await readJsonBody(request, BODY_LIMIT));
    if (selectorCallsModel(body.selector)) await enforceRateLimit(principal, "model");
    const result = await runToolSearchCall(getDb(), params.catalog, body);
    return Response.json({
      conversationId: result.conversationId,
      path: result.path,
      tools: result.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      rejected: result.rejected,
      selector: result.selection?.selector ?? null,
      fallback: result.selection?.fallback ?? null,
      decisionId: result.decisionId,
      latencyMs: result.latencyMs,
    });
  },
  { limit: "read" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
