import { getDb } from "@/db/client";
import { getCatalog } from "@/db/queries/catalogs";
import { listTools } from "@/db/queries/tools";
import { buildExport } from "@/lib/catalogs/exchange";
import { handle } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  const db = getDb();
  const document = buildExport(getCatalog(db, catalog), listTools(db, catalog));
  return Response.json(document, {
    headers: { "content-disposition": `attachment; filename="${catalog}.toolshed.json"` },
  });
});
