import { getDb } from "@/db/client";
import { createCustomTool, listTools } from "@/db/queries/tools";
import { toolBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  return Response.json({ tools: listTools(getDb(), catalog) });
});

export const POST = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const body = parseWith(toolBody, await readJsonBody(request));
  const tool = createCustomTool(getDb(), catalog, body, actorOf(request));
  return Response.json({ tool }, { status: 201 });
});
