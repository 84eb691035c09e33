import { getDb } from "@/db/client";
import { deleteCatalog, getCatalog, updateCatalog } from "@/db/queries/catalogs";
import { updateCatalogBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  return Response.json({ catalog: getCatalog(getDb(), catalog) });
});

export const PATCH = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const body = parseWith(updateCatalogBody, await readJsonBody(request));
  return Response.json({ catalog: updateCatalog(getDb(), catalog, body, actorOf(request)) });
});

export const DELETE = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  deleteCatalog(getDb(), catalog);
  return new Response(null, { status: 204 });
});
