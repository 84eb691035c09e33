import "server-only";
import { getDb } from "@/db/client";
import { ensureOAuthResource } from "@/db/queries/oauth";
import { rolesOfUser, teamOfCatalog } from "@/db/queries/teams";
import { APIError } from "better-auth/api";
import { catalogOfGatewayResource } from "@/lib/auth/oauth";
import { publicOrigin } from "@/lib/auth/origin";

/**
 * Looks at an authorization request before the OAuth provider does, so that it tells nobody which
 * catalogs exist. The provider checks the resources a request names before it asks who is signed
 * in, and answers one it has no row for with `invalid_target`: a stranger could probe catalog names.
 * So a request from nobody signed in is sent to sign in first (and comes back here, as whoever
 * signed in); a signed-in person's request that names a catalog gateway they have no role in, the
 * catalog existing or not, is refused the same way (400 `invalid_target`, never a redirect to the
 * client's address, which is not checked yet), and so is one that does not name exactly one
 * gateway. Returns where to send the browser to sign in, or undefined to let the provider go on.
 *
 * The provider issues tokens only for resources it has a row for. A catalog's gateway gets its row
 * here, when a person with a role in its team first asks for it, not when the catalog is created:
 * its identifier is an absolute URL, which depends on TOOLSHED_URL (a migration cannot know it,
 * and the operator may change it), and every catalog, old or new, is covered without a backfill;
 * strangers add no rows. A deleted catalog's row stays, unused (the gateway answers 404 first).
 */
export async function guardAuthorizationRequest(userId: string | undefined, query: Record<string, unknown> | undefined): Promise<string | undefined> {
  if (userId === undefined) {
    const resumed = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) for (const one of ([] as unknown[]).concat(value)) resumed.append(name, String(one));
    return `/sign-in?next=${encodeURIComponent(`/api/auth/oauth2/authorize?${resumed}`)}`;
  }
  // Toolshed issues tokens for its catalog gateways only, one gateway per token (its `aud`).
  const resources = ([] as unknown[]).concat(query?.resource ?? []);
  const catalogId = resources.length === 1 && typeof resources[0] === "string" ? catalogOfGatewayResource(publicOrigin(), resources[0]) : undefined;
  if (catalogId === undefined) {
    throw new APIError("BAD_REQUEST", {
      error: "invalid_target",
      error_description: "Name exactly one Toolshed catalog gateway as the resource (RFC 8707), e.g. resource=<Toolshed URL>/api/catalogs/<catalog>/mcp.",
    });
  }
  const teamId = await teamOfCatalog(getDb(), catalogId);
  if (teamId === undefined || !Object.hasOwn(await rolesOfUser(getDb(), userId), teamId)) {
    throw new APIError("BAD_REQUEST", { error: "invalid_target", error_description: `Catalog "${catalogId}" does not exist, or you have no role in it.` });
  }
  await ensureOAuthResource(getDb(), resources[0] as string, `Toolshed catalog "${catalogId}"`);
  return undefined;
}

/**
 * Refuses to issue an access token (at the code exchange, and at every refresh) for a catalog
 * gateway whose catalog is gone or in whose team the person has no role any more: a removed member's
 * client stops getting tokens, not only stops being let in (the gateway checks the role anyway).
 */
export async function requireGatewayRoles(userId: string | undefined, resources: readonly string[] | undefined): Promise<void> {
  const origin = publicOrigin();
  const roles = userId === undefined ? {} : await rolesOfUser(getDb(), userId);
  for (const resource of resources ?? []) {
    const catalogId = catalogOfGatewayResource(origin, resource);
    const teamId = catalogId === undefined ? undefined : await teamOfCatalog(getDb(), catalogId);
    if (teamId === undefined || !Object.hasOwn(roles, teamId)) {
      throw new APIError("BAD_REQUEST", { error: "invalid_target", error_description: `No access token can be issued for ${resource} to this person.` });
    }
  }
}
