import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listDecisions } from "@/db/queries/decisions";
import { decisionQuery } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

export const GET = catalogRoute<{ catalog: string }>("read", ({ request, params }) => {
  const query = parseWith(decisionQuery, Object.fromEntries(new URL(request.url).searchParams));
  const decisions = listDecisions(getDb(), params.catalog, {
    conversationId: query.conversationId,
    kind: query.kind,
    path: query.path,
    withRejections: query.rejected !== undefined,
    withFallback: query.fallback !== undefined,
    limit: query.limit,
  });
  return Response.json({ decisions });
});
