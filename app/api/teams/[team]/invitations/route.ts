import { getDb } from "@/db/client";
import { inviteMember, listInvitations } from "@/db/queries/teams";
import { publicOrigin } from "@/lib/auth/origin";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";
import { invitationBody } from "@/lib/team-schemas";
import { teamRoute } from "../../team-route";

type Params = { team: string };

export const GET = teamRoute<Params>("admin", async ({ params }) => Response.json({ invitations: await listInvitations(getDb(), params.team) }));

/** The link carries the invitation's secret: this response is the only place it is ever shown. */
export const POST = teamRoute<Params>("admin", async ({ request, params, actor }) => {
  const body = parseWith(invitationBody, await readJsonBody(request));
  const { invitation, secret } = await inviteMember(getDb(), params.team, body, actor);
  return Response.json({ invitation, link: `${publicOrigin()}/invite/${secret}` }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
