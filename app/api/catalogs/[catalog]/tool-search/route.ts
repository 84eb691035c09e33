import { catalogRoute } from "@/app/_services/access";
import { answerToolSearch } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { toolSearchBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

const BODY_LIMIT = 1024 * 1024;

export const POST = catalogRoute<{ catalog: string }>(
  "read",
  async ({ request, params, principal }) =>
    Response.json(await answerToolSearch(getDb(), params.catalog, principal, parseWith(toolSearchBody, await readJsonBody(request, BODY_LIMIT)))),
  { limit: "read" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
