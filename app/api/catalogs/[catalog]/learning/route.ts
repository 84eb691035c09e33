import { catalogRoute } from "@/app/_services/access";
import { learnedForTool, learningStatus, resetLearning, setLearning } from "@/app/_services/learning";
import { getDb } from "@/db/client";
import { learningBody, learningQuery } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

/** Whether the catalog learns from use and how much it has learned; with `?tool=`, what it learned for that tool. */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ request, params }) => {
  const query = parseWith(learningQuery, Object.fromEntries(new URL(request.url).searchParams));
  if (query.tool !== undefined) return Response.json(await learnedForTool(getDb(), params.catalog, query.tool));
  return Response.json(await learningStatus(getDb(), params.catalog));
});

/** Turns learning on or off: off, selection ignores what was learned (and keeps it). */
export const PUT = catalogRoute<{ catalog: string }>(
  "write",
  async ({ request, params }) => {
    const body = parseWith(learningBody, await readJsonBody(request, 1024));
    return Response.json(await setLearning(getDb(), params.catalog, body.enabled));
  },
  { limit: "write" },
);

/** Forgets everything the catalog learned. */
export const DELETE = catalogRoute<{ catalog: string }>(
  "write",
  async ({ params }) => {
    const deleted = await resetLearning(getDb(), params.catalog);
    return Response.json({ deleted, ...(await learningStatus(getDb(), params.catalog)) });
  },
  { limit: "write" },
);

export const { POST, PATCH } = refuseOtherMethods({ GET, PUT, DELETE });
