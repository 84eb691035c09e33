import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listToolHistory } from "@/db/queries/audit";
import { getTool } from "@/db/queries/tools";
import { refuseOtherMethods } from "@/lib/http";

export const GET = catalogRoute<{ catalog: string; name: string }>("read", async ({ params }) => {
  const db = getDb();
  await getTool(db, params.catalog, params.name);
  return Response.json({ entries: await listToolHistory(db, params.catalog, params.name) });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
