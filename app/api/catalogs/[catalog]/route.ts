import { catalogRoute } from "@/app/_services/access";
import { removeCatalog } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { getCatalog, updateCatalog } from "@/db/queries/catalogs";
import { updateCatalogBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string };

export const GET = catalogRoute<Params>("read", async ({ params }) => Response.json({ catalog: await getCatalog(getDb(), params.catalog) }));

export const PATCH = catalogRoute<Params>("write", async ({ request, params, actor }) => {
  const body = parseWith(updateCatalogBody, await readJsonBody(request));
  return Response.json({ catalog: await updateCatalog(getDb(), params.catalog, body, actor) });
});

/** Deletes the catalog with everything in it; its MCP servers' processes stop. */
export const DELETE = catalogRoute<Params>("admin", async ({ params }) => {
  await removeCatalog(getDb(), params.catalog);
  return new Response(null, { status: 204 });
});

export const { POST, PUT } = refuseOtherMethods({ GET, PATCH, DELETE });
