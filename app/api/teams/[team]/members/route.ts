import { getDb } from "@/db/client";
import { listMembers } from "@/db/queries/teams";
import { teamRoute } from "../../team-route";
import { refuseOtherMethods } from "@/lib/http";

export const GET = teamRoute<{ team: string }>("read", async ({ params }) => Response.json({ members: await listMembers(getDb(), params.team) }));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
