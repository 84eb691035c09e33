import { catalogRoute } from "@/app/_services/access";
import { exportCatalogCode } from "@/app/_services/catalog-code";
import { getDb } from "@/db/client";
import { getCatalog } from "@/db/queries/catalogs";
import { listTools } from "@/db/queries/tools";
import { exportQuery } from "@/lib/api-schemas";
import { buildExport } from "@/lib/catalogs/exchange";
import { parseWith, refuseOtherMethods } from "@/lib/http";

const CONTENT_TYPES = { yaml: "application/yaml; charset=utf-8", json: "application/json; charset=utf-8" };

/** With `?format=yaml|json`: the whole catalog as code (version 2); without: its tools (version 1), which the import reads. */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ request, params }) => {
  const { format } = parseWith(exportQuery, Object.fromEntries(new URL(request.url).searchParams));
  const db = getDb();
  if (format) {
    return new Response(await exportCatalogCode(db, params.catalog, format), {
      headers: { "content-type": CONTENT_TYPES[format], "content-disposition": `attachment; filename="${params.catalog}.catalog.${format}"` },
    });
  }
  const document = buildExport(await getCatalog(db, params.catalog), await listTools(db, params.catalog));
  return Response.json(document, {
    headers: { "content-disposition": `attachment; filename="${params.catalog}.toolshed.json"` },
  });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
