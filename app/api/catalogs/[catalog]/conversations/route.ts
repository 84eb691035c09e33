import { getDb } from "@/db/client";
import { listConversations } from "@/db/queries/conversations";
import { handle } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  return Response.json({ conversations: listConversations(getDb(), catalog) });
});
