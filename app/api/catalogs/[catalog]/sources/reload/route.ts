import { catalogRoute } from "@/app/_services/access";
import { reloadLocalSources, syncLocalSources } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { listCatalogs } from "@/db/queries/catalogs";
import { refuseOtherMethods } from "@/lib/http";

/** Reads the plugin, skill and agent folders again and updates every catalog's tools from them. */
export const POST = catalogRoute<{ catalog: string }>("admin", async () => {
  const db = getDb();
  const local = await reloadLocalSources();
  for (const { id } of await listCatalogs(db)) await syncLocalSources(db, id);
  return Response.json({ loadedAt: local.loadedAt, errors: local.errors });
});

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
