import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { importTools } from "@/db/queries/tools";
import { parseImport } from "@/lib/catalogs/exchange";
import { readJsonBody } from "@/lib/http";

const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

export const POST = catalogRoute<{ catalog: string }>("write", async ({ request, params, actor }) => {
  const tools = parseImport(await readJsonBody(request, IMPORT_BODY_LIMIT));
  return Response.json(importTools(getDb(), params.catalog, tools, actor));
});
