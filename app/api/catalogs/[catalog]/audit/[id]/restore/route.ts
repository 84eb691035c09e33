import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { restoreVersion } from "@/app/_services/restore";
import { getDb } from "@/db/client";
import { auditEntryId, restoreBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string; id: string };

/** Brings back the version of a tool, agent or part of the rules that an audit entry recorded, as an edit would (editors). */
export const POST = catalogWriteRoute<Params>("write", async ({ request, params, actor }) => {
  const body = parseWith(restoreBody, await readJsonBody(request));
  return Response.json(await restoreVersion(getDb(), params.catalog, { ...body, entry: parseWith(auditEntryId, params.id) }, actor));
});

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
