import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listToolHistory, withActorNames } from "@/db/queries/audit";
import { getTool } from "@/db/queries/tools";
import { refuseOtherMethods } from "@/lib/http";

/** A tool's history, each entry naming who made it; a deleted tool's too (its delete can be restored), 404 only for a name never recorded. */
export const GET = catalogRoute<{ catalog: string; name: string }>("read", async ({ params }) => {
  const db = getDb();
  const entries = await listToolHistory(db, params.catalog, params.name);
  if (entries.length === 0) await getTool(db, params.catalog, params.name);
  return Response.json({ entries: await withActorNames(db, entries) });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
