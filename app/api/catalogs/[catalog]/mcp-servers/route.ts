import { catalogRoute } from "@/app/_services/access";
import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { mcpServerViewFor } from "@/app/_services/mcp-views";
import { addMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { getMcpServer, listMcpServers } from "@/db/queries/mcp-servers";
import { mcpServerBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string };

export const GET = catalogRoute<Params>("read", async ({ params, access }) =>
  Response.json({ servers: (await listMcpServers(getDb(), params.catalog)).map((server) => mcpServerViewFor(params.catalog, server, access)) }),
);

/**
 * Adds a server and syncs it at once, in one revision; a server that cannot be reached is still
 * added, with its error. A stdio server (or any, while private addresses are allowed) needs an instance admin too.
 */
export const POST = catalogWriteRoute<Params>("admin", async ({ request, params, principal }) => {
  const config = parseWith(mcpServerBody, await readJsonBody(request));
  const db = getDb();
  const sync = await addMcpServer(db, params.catalog, config, principal);
  return Response.json({ server: await getMcpServer(db, params.catalog, config.name), sync }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
