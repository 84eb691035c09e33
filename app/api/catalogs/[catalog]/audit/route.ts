import { catalogRoute } from "@/app/_services/access";
import { historyOf } from "@/app/_services/restore";
import { getDb } from "@/db/client";
import { auditQuery } from "@/lib/api-schemas";
import { parseWith, refuseOtherMethods } from "@/lib/http";

/** The audit history of the catalog's rules or agents, newest first, each entry with who made it (`actorName`). */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ request, params }) => {
  const query = parseWith(auditQuery, Object.fromEntries(new URL(request.url).searchParams));
  return Response.json({ entries: await historyOf(getDb(), params.catalog, query.of, query.limit) });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
