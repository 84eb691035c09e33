import { syncMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { getMcpServer } from "@/db/queries/mcp-servers";
import { handle } from "@/lib/http";

type Context = { params: Promise<{ catalog: string; name: string }> };

export const POST = handle(async (_request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  const db = getDb();
  const sync = await syncMcpServer(db, catalog, name);
  return Response.json({ server: getMcpServer(db, catalog, name), sync });
});
