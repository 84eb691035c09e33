import { catalogRoute } from "@/app/_services/access";
import { catalogState } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { toolListBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody } from "@/lib/http";
import { computeToolList } from "@/lib/pipeline/tool-list";

export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params }) => {
    const body = parseWith(toolListBody, await readJsonBody(request));
    const state = await catalogState(getDb(), params.catalog);
    const list = computeToolList(state, body);
    return Response.json({
      catalog: params.catalog,
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
  },
  { limit: "read" },
);
