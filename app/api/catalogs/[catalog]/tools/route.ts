import { catalogRoute } from "@/app/_services/access";
import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { getDb } from "@/db/client";
import { listToolPage } from "@/db/queries/tool-pages";
import { createCustomTool, listTools } from "@/db/queries/tools";
import { toolBody, toolPageQuery } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string };

const PAGE_PARAMETERS = Object.keys(toolPageQuery.shape);

/**
 * Every tool (`{ tools }`, as always), or with any of q, source, state, tag, changedSince, changedIn,
 * cursor, offset, limit one page of them: `{ tools, total, nextCursor?, facets, revision, sourceChanges? }`.
 */
export const GET = catalogRoute<Params>("read", async ({ request, params }) => {
  const search = new URL(request.url).searchParams;
  if (!PAGE_PARAMETERS.some((key) => search.has(key))) return Response.json({ tools: await listTools(getDb(), params.catalog) });
  const query = parseWith(toolPageQuery, Object.fromEntries(search));
  return Response.json(await listToolPage(getDb(), params.catalog, query));
});

export const POST = catalogWriteRoute<Params>("write", async ({ request, params, actor }) => {
  const body = parseWith(toolBody, await readJsonBody(request));
  const tool = await createCustomTool(getDb(), params.catalog, body, actor);
  return Response.json({ tool }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
