import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { syncMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { getMcpServer } from "@/db/queries/mcp-servers";
import { refuseOtherMethods } from "@/lib/http";

export const POST = catalogWriteRoute<{ catalog: string; name: string }>("admin", async ({ params }) => {
  const db = getDb();
  const sync = await syncMcpServer(db, params.catalog, params.name);
  return Response.json({ server: await getMcpServer(db, params.catalog, params.name), sync });
});

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
