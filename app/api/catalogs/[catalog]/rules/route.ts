import { catalogRoute } from "@/app/_services/access";
import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { getDb } from "@/db/client";
import { getRules, saveRules } from "@/db/queries/rules";
import { rulesBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string };

export const GET = catalogRoute<Params>("read", async ({ params }) => Response.json({ rules: await getRules(getDb(), params.catalog) }));

export const PUT = catalogWriteRoute<Params>("write", async ({ request, params, actor }) => {
  const body = parseWith(rulesBody, await readJsonBody(request));
  return Response.json({ rules: await saveRules(getDb(), params.catalog, body, actor) });
});

export const { POST, PATCH, DELETE } = refuseOtherMethods({ GET, PUT });
