import { getDb } from "@/db/client";
import { deleteConversation, getConversation, listMessages } from "@/db/queries/conversations";
import { handle } from "@/lib/http";

type Context = { params: Promise<{ catalog: string; id: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog, id } = await params;
  const db = getDb();
  const conversation = getConversation(db, id, catalog);
  return Response.json({ conversation, messages: listMessages(db, id) });
});

export const DELETE = handle(async (_request: Request, { params }: Context) => {
  const { catalog, id } = await params;
  deleteConversation(getDb(), catalog, id);
  return new Response(null, { status: 204 });
});
