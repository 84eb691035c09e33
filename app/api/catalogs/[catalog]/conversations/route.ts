import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listConversations } from "@/db/queries/conversations";

export const GET = catalogRoute<{ catalog: string }>("read", ({ params }) => Response.json({ conversations: listConversations(getDb(), params.catalog) }));
