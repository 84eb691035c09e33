import { syncLocalSources } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { createCatalog, listCatalogs } from "@/db/queries/catalogs";
import { createCatalogBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

export const GET = handle(() => Response.json({ catalogs: listCatalogs(getDb()) }));

export const POST = handle(async (request: Request) => {
  const body = parseWith(createCatalogBody, await readJsonBody(request));
  const db = getDb();
  const catalog = createCatalog(db, body, actorOf(request));
  await syncLocalSources(db, catalog.id);
  return Response.json({ catalog }, { status: 201 });
});
