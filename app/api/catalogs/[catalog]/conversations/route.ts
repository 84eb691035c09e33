import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listConversations } from "@/db/queries/conversations";
import { refuseOtherMethods } from "@/lib/http";

export const GET = catalogRoute<{ catalog: string }>("read", async ({ params }) =>
  Response.json({ conversations: await listConversations(getDb(), params.catalog) }),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
