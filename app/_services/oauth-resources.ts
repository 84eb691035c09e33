import "server-only";
import { getDb } from "@/db/client";
import { ensureOAuthResource } from "@/db/queries/oauth";
import { rolesOfUser, teamOfCatalog } from "@/db/queries/teams";
import { APIError } from "better-auth/api";
import { catalogOfGatewayResource } from "@/lib/auth/oauth";
import { publicOrigin } from "@/lib/auth/origin";

/**
 * The authorization server issues tokens only for resources it has a row for (RFC 8707's
 * `invalid_target` otherwise). A catalog's gateway gets its row when an authorization request
 * first names it, not when the catalog is created: its identifier is an absolute URL, which
 * depends on TOOLSHED_URL (a migration cannot know it, and the operator may change it), and every
 * catalog, old or new, is covered without a backfill. Only an existing catalog's gateway gets one,
 * so a request naming made-up catalogs adds nothing; a deleted catalog's row stays, unused (the
 * gateway answers 404 before it looks at a token's audience).
 */
export async function ensureRequestedGatewayResources(path: string, query: Record<string, unknown> | undefined): Promise<void> {
  if (path !== "/oauth2/authorize" || !query) return;
  const requested = ([] as unknown[]).concat(query.resource ?? []);
  const origin = publicOrigin();
  for (const resource of requested) {
    if (typeof resource !== "string") continue;
    const catalogId = catalogOfGatewayResource(origin, resource);
    if (catalogId === undefined || (await teamOfCatalog(getDb(), catalogId)) === undefined) continue;
    await ensureOAuthResource(getDb(), resource, `Toolshed catalog "${catalogId}"`);
  }
}

/**
 * Refuses to issue an access token (at the code exchange, and at every refresh) for a catalog
 * gateway whose catalog is gone or in whose team the person has no role any more: a removed member's
 * client stops getting tokens, not only stops being let in (the gateway checks the role anyway).
 */
export async function requireGatewayRoles(userId: string | undefined, resources: readonly string[] | undefined): Promise<void> {
  const origin = publicOrigin();
  for (const resource of resources ?? []) {
    const catalogId = catalogOfGatewayResource(origin, resource);
    const teamId = catalogId === undefined ? undefined : await teamOfCatalog(getDb(), catalogId);
    const roles = userId === undefined ? {} : await rolesOfUser(getDb(), userId);
    if (teamId === undefined || !Object.hasOwn(roles, teamId)) {
      throw new APIError("BAD_REQUEST", { error: "invalid_target", error_description: `No access token can be issued for ${resource} to this person.` });
    }
  }
}
