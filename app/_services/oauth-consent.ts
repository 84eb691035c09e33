import "server-only";
import { verifyOAuthQueryParams } from "@better-auth/oauth-provider";
import { getDb } from "@/db/client";
import { findCatalog } from "@/db/queries/catalogs";
import { findOAuthClientLabel } from "@/db/queries/oauth";
import { catalogOfGatewayResource, consentScopes, type GatewayScope, scopesAllowedFor } from "@/lib/auth/oauth";
import { publicOrigin } from "@/lib/auth/origin";
import type { UserPrincipal } from "@/lib/auth/policy";
import { catalogAccessOf } from "./access";
import { getAuth } from "./auth";

/** What the consent page shows for an authorization request, and what it may send back. */
export type ConsentRequest =
  /** The page was not opened by the authorization server (no or a bad signature, or expired). */
  | { kind: "invalid" }
  /** A request the person cannot grant (no catalog gateway named, or one they may not use): they may only refuse it. */
  | { kind: "refused"; clientName: string; reason: string; oauthQuery: string }
  | {
      kind: "ask";
      clientName: string;
      clientUri?: string;
      clientId: string;
      catalogId: string;
      catalogName: string;
      /** The scopes accepting grants (space-separated, as the consent endpoint takes them). */
      scope: string;
      granted: string[];
      withheld: GatewayScope[];
      oauthQuery: string;
    };

/**
 * Reads the request the authorization server sent the person to the consent page with (its query,
 * signed with the app's secret: checked here before anything is shown) and decides what they may
 * grant: the one catalog gateway it names, if they have a role in its team, with the scopes that
 * role allows. Accepting or refusing goes to better-auth's consent endpoint with the same signed query.
 */
export async function readConsentRequest(query: URLSearchParams, principal: UserPrincipal): Promise<ConsentRequest> {
  const oauthQuery = query.toString();
  if (!(await verifyOAuthQueryParams(oauthQuery, (await getAuth().$context).secret))) return { kind: "invalid" };
  const clientId = query.get("client_id") ?? "";
  const client = await findOAuthClientLabel(getDb(), clientId);
  // The authorization endpoint signed the query only after finding the client; it may have been deleted since.
  if (!client) return { kind: "invalid" };
  const clientName = client.name ?? clientId;
  const resources = query.getAll("resource");
  const catalogId = resources.length === 1 ? catalogOfGatewayResource(publicOrigin(), resources[0]) : undefined;
  const catalog = catalogId === undefined ? undefined : await findCatalog(getDb(), catalogId);
  const access = catalog ? await catalogAccessOf(principal, catalog.id) : null;
  if (!catalog || access === null) {
    const reason =
      resources.length === 1
        ? "It asks for a catalog that does not exist or that you have no role in."
        : "It does not name the one Toolshed catalog gateway it wants to use.";
    return { kind: "refused", clientName, reason, oauthQuery };
  }
  const { granted, withheld } = consentScopes((query.get("scope") ?? "").split(" "), scopesAllowedFor(access));
  if (!granted.some((scope) => scope !== "offline_access")) {
    return { kind: "refused", clientName, reason: `Your role in catalog "${catalog.name}" allows none of the access it asks for.`, oauthQuery };
  }
  return {
    kind: "ask",
    clientName,
    ...(client.uri ? { clientUri: client.uri } : {}),
    clientId,
    catalogId: catalog.id,
    catalogName: catalog.name,
    scope: granted.join(" "),
    granted,
    withheld,
    oauthQuery,
  };
}
