import { getDb } from "@/db/client";
import { getRules, saveRules } from "@/db/queries/rules";
import { rulesBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  return Response.json({ rules: getRules(getDb(), catalog) });
});

export const PUT = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const body = parseWith(rulesBody, await readJsonBody(request));
  return Response.json({ rules: saveRules(getDb(), catalog, body, actorOf(request)) });
});
