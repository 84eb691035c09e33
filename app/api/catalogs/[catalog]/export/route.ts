import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { getCatalog } from "@/db/queries/catalogs";
import { listTools } from "@/db/queries/tools";
import { buildExport } from "@/lib/catalogs/exchange";
import { refuseOtherMethods } from "@/lib/http";

export const GET = catalogRoute<{ catalog: string }>("read", async ({ params }) => {
  const db = getDb();
  const document = buildExport(await getCatalog(db, params.catalog), await listTools(db, params.catalog));
  return Response.json(document, {
    headers: { "content-disposition": `attachment; filename="${params.catalog}.toolshed.json"` },
  });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
