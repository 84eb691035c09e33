import { getDb } from "@/db/client";
import { revokeInvitation } from "@/db/queries/teams";
import { noContent, teamRoute } from "../../../team-route";
import { refuseOtherMethods } from "@/lib/http";

export const DELETE = teamRoute<{ team: string; id: string }>("admin", async ({ params }) => {
  await revokeInvitation(getDb(), params.team, params.id);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = refuseOtherMethods({ DELETE });
