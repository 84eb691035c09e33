import { getDb } from "@/db/client";
import { listMembers } from "@/db/queries/teams";
import { teamRoute } from "../../team-route";

export const GET = teamRoute<{ team: string }>("read", ({ params }) => Response.json({ members: listMembers(getDb(), params.team) }));
