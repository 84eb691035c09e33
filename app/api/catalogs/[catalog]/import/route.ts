import { getDb } from "@/db/client";
import { importTools } from "@/db/queries/tools";
import { parseImport } from "@/lib/catalogs/exchange";
import { actorOf, handle, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

export const POST = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const tools = parseImport(await readJsonBody(request, IMPORT_BODY_LIMIT));
  return Response.json(importTools(getDb(), catalog, tools, actorOf(request)));
});
