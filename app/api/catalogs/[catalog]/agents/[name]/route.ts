import { getDb } from "@/db/client";
import { deleteAgent, getAgent, saveAgent } from "@/db/queries/agents";
import { agentBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string; name: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  return Response.json({ agent: getAgent(getDb(), catalog, name) });
});

export const PUT = handle(async (request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  const agent = saveAgent(getDb(), catalog, parseWith(agentBody, await readJsonBody(request)), actorOf(request), name);
  return Response.json({ agent });
});

export const DELETE = handle(async (request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  deleteAgent(getDb(), catalog, name, actorOf(request));
  return new Response(null, { status: 204 });
});
