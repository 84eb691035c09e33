import { catalogRoute } from "@/app/_services/access";
import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { mcpServerViewFor } from "@/app/_services/mcp-views";
import { removeMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { getMcpServer } from "@/db/queries/mcp-servers";
import { refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string; name: string };

export const GET = catalogRoute<Params>("read", async ({ params, access }) =>
  Response.json({ server: mcpServerViewFor(params.catalog, await getMcpServer(getDb(), params.catalog, params.name), access) }),
);

/** Removes the server and its tools (their audit history stays) and closes its connection. */
export const DELETE = catalogWriteRoute<Params>("admin", async ({ params, actor }) => {
  await removeMcpServer(getDb(), params.catalog, params.name, actor);
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH } = refuseOtherMethods({ GET, DELETE });
