import { syncMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { createMcpServer, getMcpServer, listMcpServers } from "@/db/queries/mcp-servers";
import { mcpServerBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  return Response.json({ servers: listMcpServers(getDb(), catalog) });
});

/** Adds a server and syncs it at once; a server that cannot be reached is still added, with its error. */
export const POST = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const config = parseWith(mcpServerBody, await readJsonBody(request));
  const db = getDb();
  createMcpServer(db, catalog, config, actorOf(request));
  const sync = await syncMcpServer(db, catalog, config.name);
  return Response.json({ server: getMcpServer(db, catalog, config.name), sync }, { status: 201 });
});
