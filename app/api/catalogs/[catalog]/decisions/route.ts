import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { pageDecisions } from "@/db/queries/decisions";
import { decisionQuery } from "@/lib/api-schemas";
import { parseWith, refuseOtherMethods } from "@/lib/http";

/** A page of decisions, newest first, without input and raw output (GET /api/decisions/{id} has them). */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ request, params }) => {
  const query = parseWith(decisionQuery, Object.fromEntries(new URL(request.url).searchParams));
  const page = await pageDecisions(getDb(), params.catalog, {
    conversationId: query.conversationId,
    kind: query.kind,
    path: query.path,
    tool: query.tool,
    asked: query.q,
    selector: query.selector,
    outcome: query.outcome,
    withRejections: query.rejected !== undefined,
    withFallback: query.fallback !== undefined,
    limit: query.limit,
    cursor: query.cursor,
  });
  return Response.json(page);
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
