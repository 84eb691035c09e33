import "server-only";
import { getDb } from "@/db/client";
import { listOAuthGrants, revokeOAuthGrant } from "@/db/queries/oauth";
import { catalogOfGatewayResource } from "@/lib/auth/oauth";
import { publicOrigin } from "@/lib/auth/origin";
import type { UserPrincipal } from "@/lib/auth/policy";
import { notFound } from "@/lib/errors";

/** A grant as Settings shows it: the client, what it may do, and for which catalogs. */
export interface GrantView {
  clientId: string;
  clientName: string;
  scopes: string[];
  catalogs: string[];
  grantedAt: string;
}

/** The OAuth clients the signed-in person has allowed in, newest first. */
export async function grantsOf(principal: UserPrincipal): Promise<GrantView[]> {
  const origin = publicOrigin();
  return (await listOAuthGrants(getDb(), principal.id)).map((grant) => ({
    clientId: grant.clientId,
    clientName: grant.clientName ?? grant.clientId,
    scopes: grant.scopes,
    catalogs: grant.resources.flatMap((resource) => catalogOfGatewayResource(origin, resource) ?? []),
    grantedAt: grant.grantedAt,
  }));
}

/** Revokes the person's own grant to a client: its tokens are refused from the next request on. */
export async function revokeGrant(principal: UserPrincipal, clientId: string): Promise<void> {
  if (!(await revokeOAuthGrant(getDb(), principal.id, clientId))) throw notFound(`Grant to "${clientId}"`, "clientId");
}
