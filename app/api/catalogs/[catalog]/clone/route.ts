import { catalogRoute } from "@/app/_services/access";
import { cloneCatalogFor } from "@/app/_services/catalog-code";
import { getDb } from "@/db/client";
import { cloneBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

/** Copies the catalog into a new one, in a team the caller is admin of (by default this catalog's team) → 201 `{ catalog }`. */
export const POST = catalogRoute<{ catalog: string }>("read", async ({ request, params, principal, actor }) => {
  const body = parseWith(cloneBody, await readJsonBody(request));
  const catalog = await cloneCatalogFor(getDb(), params.catalog, body, { principal, actor });
  return Response.json({ catalog }, { status: 201 });
});

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
