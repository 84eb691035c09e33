import { catalogRoute } from "@/app/_services/access";
import { catalogEmbeddings } from "@/app/_services/selection";
import { refuseOtherMethods } from "@/lib/http";

/** How far the catalog's tools are embedded for the hybrid selector: polled while a build runs. */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ params }) =>
  Response.json({ embeddings: await catalogEmbeddings(params.catalog, { start: false }) }, { headers: { "cache-control": "no-store" } }),
);

/** Starts embedding the tools not embedded yet (e.g. after a large import), rather than at the first hybrid request. */
export const POST = catalogRoute<{ catalog: string }>(
  "write",
  async ({ params }) => Response.json({ embeddings: await catalogEmbeddings(params.catalog, { start: true }) }, { status: 202 }),
  { limit: "model" },
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
