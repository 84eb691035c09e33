import "server-only";
import { metadataResponse, oauthProviderAuthServerMetadata } from "@better-auth/oauth-provider";
import { getLocalJwksSource } from "@better-auth/oauth-provider/internal";
import { isAPIError } from "better-auth/api";
import { createDpopReplayStore, requestToResourceInput, verifyAccessTokenRequest } from "better-auth/oauth2";
import { getDb } from "@/db/client";
import { grantHolder } from "@/db/queries/oauth";
import { rolesOfUser } from "@/db/queries/teams";
import { type GatewayScope, gatewayResourceUrl, gatewayScopesOf, protectedResourceMetadata } from "@/lib/auth/oauth";
import { publicOrigin } from "@/lib/auth/origin";
import type { UserPrincipal } from "@/lib/auth/policy";
import { ToolshedError } from "@/lib/errors";
import { getAuth } from "./auth";

/** Who an OAuth access token speaks for at a catalog's gateway, and what its client may do there. */
export interface GatewayGrant {
  principal: UserPrincipal;
  scopes: GatewayScope[];
  clientId: string;
}

/** The authorization server's issuer: better-auth's base URL (`…/api/auth`), the `iss` of its tokens. */
async function oauthIssuer(): Promise<string> {
  return (await getAuth().$context).baseURL;
}

/** Metadata is public and read by browser-based MCP clients (e.g. the MCP Inspector) from other origins. */
const METADATA_HEADERS = { "access-control-allow-origin": "*" };

/** The authorization server's metadata (RFC 8414), as better-auth's handler serves it at `/api/auth/.well-known/…`. */
export function authorizationServerMetadata(request: Request): Promise<Response> {
  return oauthProviderAuthServerMetadata(getAuth(), { headers: METADATA_HEADERS })(request);
}

/**
 * A catalog gateway's Protected Resource Metadata (RFC 9728). Served for any catalog name, existing
 * or not, to anyone: it is derived from the URL alone, and answering only for existing catalogs
 * would tell strangers which exist.
 */
export async function gatewayResourceMetadata(catalogId: string): Promise<Response> {
  return metadataResponse(protectedResourceMetadata(publicOrigin(), catalogId, await oauthIssuer()), METADATA_HEADERS);
}

function invalidToken(why: string): ToolshedError {
  return new ToolshedError("unauthorized", `This OAuth access token is not accepted here: ${why}.`);
}

/**
 * The claims of the OAuth access token a gateway request carries, once checked: a JWT signed by
 * this server's keys (read in-process, no HTTP round trip), of this issuer, for this very gateway
 * (`aud`: a token for another catalog's gateway is refused), not expired. A DPoP-bound token
 * (RFC 9449; the authorization server issues them to clients that ask) must come as
 * `Authorization: DPoP` with a proof of its key for this request, each proof used once (recorded
 * in the database, so on every instance); the proof names the gateway's public URL, which is also
 * the token's audience, whatever address a proxy forwarded the request to.
 */
async function verifyGatewayAccessToken(request: Request, catalogId: string) {
  const context = await getAuth().$context;
  // Our configured context is a narrower type than the plugins' generic one; at run time it is that context.
  const pluginContext = context as unknown as Parameters<typeof getLocalJwksSource>[0];
  const keys = getLocalJwksSource(pluginContext);
  if (!keys) throw new Error("The JWT plugin's keys are not readable in-process: OAuth tokens cannot be checked.");
  const gateway = gatewayResourceUrl(publicOrigin(), catalogId);
  try {
    return await verifyAccessTokenRequest(
      { ...requestToResourceInput(request), url: gateway },
      {
        verifyOptions: { issuer: context.baseURL, audience: gateway },
        jwksFetch: keys.jwksFetch,
        jwksCacheKey: keys.jwksCacheKey,
        dpop: { replayStore: createDpopReplayStore(pluginContext) },
      },
    );
  } catch (error) {
    // Anything else (the key set unreadable) is the server's fault, not the token's: a 500.
    if (isAPIError(error) && error.statusCode === 401) {
      throw invalidToken("it is expired, malformed, not signed by this server, for another gateway, or its DPoP proof is missing or wrong");
    }
    throw error;
  }
}

/**
 * Who an OAuth access token sent to a catalog's gateway speaks for (verifyGatewayAccessToken): a
 * person who still exists, whose grant to the client has not been revoked. Whether that person may
 * use the catalog is the caller's check, as for every other principal (requireCatalogAccess).
 * Throws `unauthorized` otherwise.
 */
export async function authenticateGatewayToken(request: Request, catalogId: string): Promise<GatewayGrant> {
  const payload = await verifyGatewayAccessToken(request, catalogId);
  // RFC 9068's client_id (better-auth also writes azp, the same value).
  const clientId = typeof payload.client_id === "string" ? payload.client_id : undefined;
  if (typeof payload.sub !== "string" || clientId === undefined) throw invalidToken("it names no person or no client");
  const db = getDb();
  const holder = await grantHolder(db, payload.sub, clientId);
  if (!holder) throw invalidToken("its person no longer has an account, or the grant it was issued under has been revoked");
  // A client acts in the person's teams, never with the operator's powers an instance admin has.
  const principal: UserPrincipal = { kind: "user", ...holder, roles: await rolesOfUser(db, holder.id), instanceAdmin: false };
  return { principal, scopes: gatewayScopesOf(payload.scope), clientId };
}

const AUTHORIZE_PATH = "/api/auth/oauth2/authorize";

/**
 * A person's browser whose authorization request fails before it can go back to the client lands
 * on Toolshed's error page (app/oauth/error), not on better-auth's bare one nor on raw JSON (the
 * errors Toolshed raises itself, e.g. `invalid_target`). Other callers keep the JSON answer.
 */
export async function authorizationErrorForBrowser(request: Request, response: Response): Promise<Response> {
  if (request.method !== "GET" || new URL(request.url).pathname !== AUTHORIZE_PATH) return response;
  const errorPage = new URL("/oauth/error", publicOrigin());
  const location = response.headers.get("location");
  const betterAuthPage = location ? new URL(location, publicOrigin()) : null;
  if (betterAuthPage?.pathname === "/api/auth/error") {
    errorPage.searchParams.set("error", betterAuthPage.searchParams.get("error") ?? "invalid_request");
    return Response.redirect(errorPage, 302);
  }
  const wantsPage = request.headers.get("accept")?.includes("text/html") ?? false;
  if (!wantsPage || response.status < 400 || response.status >= 500) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { error?: unknown };
  errorPage.searchParams.set("error", typeof body.error === "string" ? body.error : "invalid_request");
  return Response.redirect(errorPage, 302);
}
