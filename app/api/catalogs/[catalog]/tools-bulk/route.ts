import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { runBulkChange } from "@/app/_services/tool-bulk";
import { getDb } from "@/db/client";
import { toolBulkBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

/**
 * Enables, disables, retags, deletes, moves or copies many tools as one audited change, or undoes
 * one (editors; move and copy: editors of the target catalog too). Beside …/tools, not under it, so
 * that a tool named "bulk" keeps its own address.
 */
export const POST = catalogWriteRoute<{ catalog: string }>("write", async ({ request, params, principal, actor }) => {
  const body = parseWith(toolBulkBody, await readJsonBody(request));
  return Response.json(await runBulkChange(getDb(), params.catalog, body, principal, actor));
});

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
