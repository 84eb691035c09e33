import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { deleteConversation, getConversation, listMessages } from "@/db/queries/conversations";
import { refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string; id: string };

export const GET = catalogRoute<Params>("read", async ({ params }) => {
  const db = getDb();
  const conversation = await getConversation(db, params.id, params.catalog);
  return Response.json({ conversation, messages: await listMessages(db, params.id) });
});

export const DELETE = catalogRoute<Params>("read", async ({ params }) => {
  await deleteConversation(getDb(), params.catalog, params.id);
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH } = refuseOtherMethods({ GET, DELETE });
