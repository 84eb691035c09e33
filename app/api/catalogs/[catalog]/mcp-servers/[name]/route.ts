import { disconnectMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { deleteMcpServer, getMcpServer } from "@/db/queries/mcp-servers";
import { deleteSourceTools } from "@/db/queries/source-tools";
import { actorOf, handle } from "@/lib/http";

type Context = { params: Promise<{ catalog: string; name: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  return Response.json({ server: getMcpServer(getDb(), catalog, name) });
});

/** Removes the server and its tools (their audit history stays) and closes its connection. */
export const DELETE = handle(async (request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  const db = getDb();
  const actor = actorOf(request);
  deleteMcpServer(db, catalog, name, actor);
  deleteSourceTools(db, catalog, "mcp", name, actor);
  await disconnectMcpServer(catalog, name);
  return new Response(null, { status: 204 });
});
