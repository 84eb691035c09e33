import { catalogRoute } from "@/app/_services/access";
import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { withFindings } from "@/app/_services/poisoning";
import { getDb } from "@/db/client";
import { listDefinitionReviews, reviewDefinition } from "@/db/queries/definition-reviews";
import { definitionReviewBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

/** The catalog's held-back MCP tools: the approved and the current definition of each (lib/tools/pinning.ts), and what the poisoning check finds in the current one. */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ params }) => {
  const db = getDb();
  return Response.json({ reviews: await withFindings(db, params.catalog, await listDefinitionReviews(db, params.catalog)) });
});

/** `{ tool, decision: "approve" | "reject", digest }` (editors): the tool's review afterwards, null once approved. */
export const POST = catalogWriteRoute<{ catalog: string }>("write", async ({ request, params, actor }) => {
  const body = parseWith(definitionReviewBody, await readJsonBody(request));
  return Response.json({ review: (await reviewDefinition(getDb(), params.catalog, body, actor)) ?? null });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
