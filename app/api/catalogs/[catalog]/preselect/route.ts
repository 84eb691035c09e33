import { runPreselection } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { preselectBody } from "@/lib/api-schemas";
import { handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

const BODY_LIMIT = 1024 * 1024;

export const POST = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const body = parseWith(preselectBody, await readJsonBody(request, BODY_LIMIT));
  const result = await runPreselection(getDb(), catalog, body);
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
});
