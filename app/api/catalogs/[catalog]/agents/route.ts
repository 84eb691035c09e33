import { getDb } from "@/db/client";
import { listAgents, saveAgent } from "@/db/queries/agents";
import { getCatalog } from "@/db/queries/catalogs";
import { agentBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  const db = getDb();
  getCatalog(db, catalog);
  return Response.json({ agents: listAgents(db, catalog) });
});

export const POST = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const agent = saveAgent(getDb(), catalog, parseWith(agentBody, await readJsonBody(request)), actorOf(request));
  return Response.json({ agent }, { status: 201 });
});
