import { getDb } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { getTool } from "@/db/queries/tools";
import { handle } from "@/lib/http";

type Context = { params: Promise<{ catalog: string; name: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  const db = getDb();
  getTool(db, catalog, name);
  return Response.json({ entries: listAudit(db, catalog, { subjectKind: "tool", subject: name }) });
});
