import { runToolSearchCall } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { toolSearchBody } from "@/lib/api-schemas";
import { handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

const BODY_LIMIT = 1024 * 1024;

export const POST = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const body = parseWith(toolSearchBody, await readJsonBody(request, BODY_LIMIT));
  const result = await runToolSearchCall(getDb(), catalog, body);
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
});
