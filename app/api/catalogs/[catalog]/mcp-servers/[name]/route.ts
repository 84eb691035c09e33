import { catalogRoute } from "@/app/_services/access";
import { mcpServerViewFor } from "@/app/_services/mcp-views";
import { disconnectMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { deleteMcpServer, getMcpServer } from "@/db/queries/mcp-servers";
import { deleteSourceTools } from "@/db/queries/source-tools";

type Params = { catalog: string; name: string };

export const GET = catalogRoute<Params>("read", ({ params, access }) => Response.json({ server: mcpServerViewFor(getMcpServer(getDb(), params.catalog, params.name), access) }));

/** Removes the server and its tools (their audit history stays) and closes its connection. */
export const DELETE = catalogRoute<Params>("admin", async ({ params, actor }) => {
  const db = getDb();
  deleteMcpServer(db, params.catalog, params.name, actor);
  deleteSourceTools(db, params.catalog, "mcp", params.name, actor);
  await disconnectMcpServer(params.catalog, params.name);
  return new Response(null, { status: 204 });
});
