import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { deleteConversation, getConversation, listMessages } from "@/db/queries/conversations";
import { CONVERSATION_DELETE_REFUSAL, mayDeleteConversation, principalKey } from "@/lib/auth/policy";
import { ToolshedError } from "@/lib/errors";
import { refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string; id: string };

export const GET = catalogRoute<Params>("read", async ({ params }) => {
  const db = getDb();
  const conversation = await getConversation(db, params.id, params.catalog);
  return Response.json({ conversation, messages: await listMessages(db, params.id) });
});

/** Its owner or an editor (or higher): the decisions that refer to it no longer replay once it is gone. */
export const DELETE = catalogRoute<Params>("read", async ({ params, principal, access }) => {
  const db = getDb();
  const conversation = await getConversation(db, params.id, params.catalog);
  if (!mayDeleteConversation({ key: principalKey(principal), access }, conversation.owner)) {
    throw new ToolshedError("forbidden", CONVERSATION_DELETE_REFUSAL);
  }
  await deleteConversation(db, params.catalog, params.id);
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH } = refuseOtherMethods({ GET, DELETE });
