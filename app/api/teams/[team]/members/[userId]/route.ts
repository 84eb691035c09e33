import { getDb } from "@/db/client";
import { changeMemberRole, removeMember } from "@/db/queries/teams";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";
import { memberRoleBody } from "@/lib/team-schemas";
import { noContent, teamRoute } from "../../../team-route";

type Params = { team: string; userId: string };

export const PUT = teamRoute<Params>("admin", async ({ request, params }) => {
  const { role } = parseWith(memberRoleBody, await readJsonBody(request));
  return Response.json({ member: await changeMemberRole(getDb(), params.team, params.userId, role) });
});

export const DELETE = teamRoute<Params>("admin", async ({ params }) => {
  await removeMember(getDb(), params.team, params.userId);
  return noContent();
});

export const { GET, POST, PATCH } = refuseOtherMethods({ PUT, DELETE });
