import { signedInRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { createTeam, getTeam, listTeams } from "@/db/queries/teams";
import { requireTeamCreation } from "@/lib/auth/policy";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";
import { createTeamBody } from "@/lib/team-schemas";

/** The caller's teams: a person's with their role, a token's own team with its scope. */
export const GET = signedInRoute(async ({ principal }) => {
  const db = getDb();
  if (principal.kind === "token") return Response.json({ teams: [{ ...(await getTeam(db, principal.teamId)), scope: principal.scope }] });
  return Response.json({ teams: (await listTeams(db, Object.keys(principal.roles))).map((team) => ({ ...team, role: principal.roles[team.id] })) });
});

/** Instance admins only, unless TOOLSHED_TEAM_CREATION=everyone; never a token. */
export const POST = signedInRoute(async ({ request, principal }) => {
  requireTeamCreation(principal);
  const body = parseWith(createTeamBody, await readJsonBody(request));
  const team = await createTeam(getDb(), body, principal.id);
  return Response.json({ team: { ...team, role: "admin" } }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
