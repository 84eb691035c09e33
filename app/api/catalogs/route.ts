import { requireTeamAccess, signedInRoute } from "@/app/_services/access";
import { syncLocalSources } from "@/app/_services/local-sources";
import { getDb } from "@/db/client";
import { createCatalog, listCatalogs } from "@/db/queries/catalogs";
import { DEFAULT_TEAM } from "@/db/queries/teams";
import { teamsOf, type Principal } from "@/lib/auth/policy";
import { createCatalogBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

/** The catalogs of every team the caller belongs to (a token: its own team's). */
export const GET = signedInRoute(async ({ principal }) => Response.json({ catalogs: await listCatalogs(getDb(), teamsOf(principal)) }));

/** Without a team named, a new catalog goes to the caller's only team, else to "default". */
function owningTeam(principal: Principal, requested: string | undefined): string {
  if (requested) return requested;
  const teams = teamsOf(principal);
  return teams.length === 1 ? teams[0] : DEFAULT_TEAM;
}

export const POST = signedInRoute(async ({ request, principal, actor }) => {
  const body = parseWith(createCatalogBody, await readJsonBody(request));
  const teamId = owningTeam(principal, body.team);
  requireTeamAccess(principal, teamId, "write");
  const db = getDb();
  const catalog = await createCatalog(db, { name: body.name, description: body.description, id: body.id, teamId }, actor);
  await syncLocalSources(db, catalog.id);
  return Response.json({ catalog }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
