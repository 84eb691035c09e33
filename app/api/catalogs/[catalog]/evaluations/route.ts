import { catalogRoute, enforceRateLimit } from "@/app/_services/access";
import { listCatalogEvaluations, startEvaluation } from "@/app/_services/evaluations";
import { selectorCallsModel } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { evaluationBody, evaluationQuery } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

/** 2,000 cases of long requests fit. */
const BODY_LIMIT = 8 * 1024 * 1024;

/** The catalog's runs, newest first, without cases and misses; `?name=` keeps one set's. */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ request, params }) => {
  const query = parseWith(evaluationQuery, Object.fromEntries(new URL(request.url).searchParams));
  const page = await listCatalogEvaluations(getDb(), params.catalog, { setName: query.name, limit: query.limit, cursor: query.cursor });
  return Response.json(page, { headers: { "cache-control": "no-store" } });
});

/**
 * Starts a run (202, to follow at its url). Editors run: a run is kept, and an LLM selector's
 * spends model calls, which count once against the model rate limit.
 */
export const POST = catalogRoute<{ catalog: string }>("write", async ({ request, params, principal, actor }) => {
  const body = parseWith(evaluationBody, await readJsonBody(request, BODY_LIMIT));
  if (selectorCallsModel(body.selector)) await enforceRateLimit(principal, "model");
  const evaluation = await startEvaluation(getDb(), params.catalog, body, actor);
  return Response.json({ evaluation }, { status: 202, headers: { location: evaluation.url } });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
