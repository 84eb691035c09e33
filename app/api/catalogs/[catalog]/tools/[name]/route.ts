import { getDb } from "@/db/client";
import { deleteTool, getTool, updateTool } from "@/db/queries/tools";
import { toolBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string; name: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  return Response.json({ tool: getTool(getDb(), catalog, name) });
});

export const PATCH = handle(async (request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  const patch = parseWith(toolBody, await readJsonBody(request));
  return Response.json({ tool: updateTool(getDb(), catalog, name, patch, actorOf(request)) });
});

export const DELETE = handle(async (request: Request, { params }: Context) => {
  const { catalog, name } = await params;
  deleteTool(getDb(), catalog, name, actorOf(request));
  return new Response(null, { status: 204 });
});
