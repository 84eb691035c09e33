import { getDb } from "@/db/client";
import { listDecisions } from "@/db/queries/decisions";
import { decisionQuery } from "@/lib/api-schemas";
import { handle, parseWith } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const query = parseWith(decisionQuery, Object.fromEntries(new URL(request.url).searchParams));
  const decisions = listDecisions(getDb(), catalog, {
    conversationId: query.conversationId,
    kind: query.kind,
    path: query.path,
    withRejections: query.rejected !== undefined,
    withFallback: query.fallback !== undefined,
    limit: query.limit,
  });
  return Response.json({ decisions });
});
