import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listDefinitionReviews, reviewDefinition } from "@/db/queries/definition-reviews";
import { definitionReviewBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

/** The catalog's held-back MCP tools: the approved and the current definition of each (lib/tools/pinning.ts). */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ params }) =>
  Response.json({ reviews: await listDefinitionReviews(getDb(), params.catalog) }),
);

/** `{ tool, decision: "approve" | "reject", digest }` (editors): the tool's review afterwards, null once approved. */
export const POST = catalogRoute<{ catalog: string }>("write", async ({ request, params, actor }) => {
  const body = parseWith(definitionReviewBody, await readJsonBody(request));
  return Response.json({ review: (await reviewDefinition(getDb(), params.catalog, body, actor)) ?? null });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
