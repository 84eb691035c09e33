import { catalogRoute } from "@/app/_services/access";
import { getCatalogEvaluation } from "@/app/_services/evaluations";
import { getDb } from "@/db/client";
import { refuseOtherMethods } from "@/lib/http";

/** One run: status and progress while it runs, then its metrics and every miss. Polled: never cached. */
export const GET = catalogRoute<{ catalog: string; id: string }>("read", async ({ params }) =>
  Response.json({ evaluation: await getCatalogEvaluation(getDb(), params.catalog, params.id) }, { headers: { "cache-control": "no-store" } }),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
