import { reloadLocalSources, syncLocalSources } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { getCatalog, listCatalogs } from "@/db/queries/catalogs";
import { handle } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

/** Reads the plugin, skill and agent folders again and updates every catalog's tools from them. */
export const POST = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  const db = getDb();
  getCatalog(db, catalog);
  const local = await reloadLocalSources();
  for (const { id } of listCatalogs(db)) await syncLocalSources(db, id);
  return Response.json({ loadedAt: local.loadedAt, errors: local.errors });
});
