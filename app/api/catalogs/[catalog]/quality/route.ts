import { catalogRoute } from "@/app/_services/access";
import { qualityReport } from "@/app/_services/quality";
import { getDb } from "@/db/client";
import { qualityQuery } from "@/lib/api-schemas";
import { parseWith, refuseOtherMethods } from "@/lib/http";

/** The description quality report: confusable pairs, weak summaries, tools nothing chose (`?days=`, 30 by default). */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ request, params }) => {
  const query = parseWith(qualityQuery, Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await qualityReport(getDb(), params.catalog, query.days));
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
