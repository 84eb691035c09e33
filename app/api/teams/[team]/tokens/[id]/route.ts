import { getDb } from "@/db/client";
import { revokeApiToken } from "@/db/queries/api-tokens";
import { noContent, teamRoute } from "../../../team-route";
import { refuseOtherMethods } from "@/lib/http";

export const DELETE = teamRoute<{ team: string; id: string }>("admin", async ({ params }) => {
  await revokeApiToken(getDb(), params.team, params.id);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = refuseOtherMethods({ DELETE });
