import { catalogRoute } from "@/app/_services/access";
import { mcpServerViewFor } from "@/app/_services/mcp-views";
import { syncMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { createMcpServer, getMcpServer, listMcpServers } from "@/db/queries/mcp-servers";
import { mcpServerBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string };

export const GET = catalogRoute<Params>("read", ({ params, access }) =>
  Response.json({ servers: listMcpServers(getDb(), params.catalog).map((server) => mcpServerViewFor(server, access)) }),
);

/** Adds a server and syncs it at once; a server that cannot be reached is still added, with its error. */
export const POST = catalogRoute<Params>("admin", async ({ request, params, actor }) => {
  const config = parseWith(mcpServerBody, await readJsonBody(request));
  const db = getDb();
  createMcpServer(db, params.catalog, config, actor);
  const sync = await syncMcpServer(db, params.catalog, config.name);
  return Response.json({ server: getMcpServer(db, params.catalog, config.name), sync }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
