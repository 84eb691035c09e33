import { getDb } from "@/db/client";
import { toolListBody } from "@/lib/api-schemas";
import { handle, parseWith, readJsonBody } from "@/lib/http";
import { computeToolList } from "@/lib/pipeline/tool-list";
import { catalogState } from "@/app/_services/sources";

type Context = { params: Promise<{ catalog: string }> };

export const POST = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const body = parseWith(toolListBody, await readJsonBody(request));
  const state = await catalogState(getDb(), catalog);
  const list = computeToolList(state, body);
  return Response.json({
    catalog,
    revision: state.revision,
    model: body.model,
    agent: body.agent,
    provider: list.provider ?? null,
    mode: list.mode,
    format: list.format,
    tools: list.tools,
    annotations: list.final.map(({ name, source, needsApproval }) => ({ name, source, needsApproval })),
    trace: list.trace,
    tokens: list.tokens,
  });
});
