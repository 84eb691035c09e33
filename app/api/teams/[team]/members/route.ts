import { getDb } from "@/db/client";
import { listMembers } from "@/db/queries/teams";
import { teamRoute } from "../../team-route";
import { refuseOtherMethods } from "@/lib/http";

export const GET = teamRoute<{ team: string }>("read", ({ params }) => Response.json({ members: listMembers(getDb(), params.team) }));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
