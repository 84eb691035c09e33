/**
 * OAuth for the catalog gateways (issue 27): Toolshed is the authorization server, each catalog's
 * gateway (`/api/catalogs/{catalog}/mcp`) a protected resource of its own (RFC 8707, RFC 9728),
 * and an access token is good for the one gateway it names in `aud`. Who may do what stays
 * Toolshed's: the token's person needs a role in the catalog's team, and its scopes say which
 * part of what that role allows the client may use.
 */

import { type Access, grants } from "./policy";

/**
 * The gateway's scopes: `tools:read` opens a session, lists tools and searches them (ToolSearch);
 * `tools:call` calls tools and reads what the catalog's MCP servers offer (resources, prompts).
 */
export const GATEWAY_SCOPES = ["tools:read", "tools:call"] as const;
export type GatewayScope = (typeof GATEWAY_SCOPES)[number];

/** Every scope a client may ask for: the gateway's, and `offline_access` for a refresh token. */
export const OAUTH_SCOPES = [...GATEWAY_SCOPES, "offline_access"] as const;

/**
 * The access each scope needs in the catalog's team. Both need only `read`: a viewer's API token
 * (scope read) lists and calls tools through the gateway today, and OAuth gives a client no more
 * and no less than the person's role. Raise `tools:call` here to keep viewers from calling.
 */
const SCOPE_ACCESS: Record<GatewayScope, Access> = { "tools:read": "read", "tools:call": "read" };

function isGatewayScope(value: string): value is GatewayScope {
  return (GATEWAY_SCOPES as readonly string[]).includes(value);
}

/** The gateway scopes a person with `access` in a catalog's team may grant a client there. */
export function scopesAllowedFor(access: Access): GatewayScope[] {
  return GATEWAY_SCOPES.filter((scope) => grants(access, SCOPE_ACCESS[scope]));
}

/**
 * Whether granted scopes cover the one a request needs: `tools:call` covers `tools:read` too (a
 * client that may call tools may see them).
 */
export function scopesCover(granted: readonly GatewayScope[], needed: GatewayScope): boolean {
  return granted.includes(needed) || (needed === "tools:read" && granted.includes("tools:call"));
}

/** The catalog gateway's absolute URL: its resource identifier, and the `aud` of its tokens. */
export function gatewayResourceUrl(origin: string, catalogId: string): string {
  return `${origin}/api/catalogs/${encodeURIComponent(catalogId)}/mcp`;
}

/** Where the gateway's Protected Resource Metadata is: RFC 9728's path-inserted well-known URL. */
export function protectedResourceMetadataUrl(origin: string, catalogId: string): string {
  return `${origin}/.well-known/oauth-protected-resource/api/catalogs/${encodeURIComponent(catalogId)}/mcp`;
}

const GATEWAY_PATH = /^\/api\/catalogs\/([^/]+)\/mcp$/;

/** The catalog whose gateway a resource identifier names, or undefined when it names none of ours. */
export function catalogOfGatewayResource(origin: string, resource: string): string | undefined {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return undefined;
  }
  const match = GATEWAY_PATH.exec(url.pathname);
  if (url.origin !== origin || !match || url.search || url.hash) return undefined;
  try {
    const catalogId = decodeURIComponent(match[1]);
    // Only the spelling gatewayResourceUrl gives: one gateway, one identifier.
    return gatewayResourceUrl(origin, catalogId) === resource ? catalogId : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 9728's metadata for one catalog gateway. */
export function protectedResourceMetadata(origin: string, catalogId: string, issuer: string) {
  return {
    resource: gatewayResourceUrl(origin, catalogId),
    authorization_servers: [issuer],
    scopes_supported: [...GATEWAY_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: `Toolshed catalog "${catalogId}" (MCP gateway)`,
  };
}

/** The authentication scheme a challenge must name: `DPoP` to a request that used it (RFC 9449 §7.1), else `Bearer`. */
function challengeScheme(authorization: string | null): "Bearer" | "DPoP" {
  return /^dpop\s/i.test(authorization ?? "") ? "DPoP" : "Bearer";
}

/**
 * The `WWW-Authenticate` header of the gateway's 401s (RFC 6750, RFC 9728 §5.1): where its
 * metadata is, which scopes to ask for, and when the request sent credentials, `invalid_token`.
 */
export function gatewayChallenge(origin: string, catalogId: string, authorization: string | null): string {
  const parts = [
    `${challengeScheme(authorization)} realm="toolshed"`,
    `resource_metadata="${protectedResourceMetadataUrl(origin, catalogId)}"`,
    `scope="${GATEWAY_SCOPES.join(" ")}"`,
  ];
  if (authorization) parts.push('error="invalid_token"');
  return parts.join(", ");
}

/** The challenge of a 403 for a token without the scope a request needs (RFC 6750 §3.1), so the client may ask for it. */
export function insufficientScopeChallenge(origin: string, catalogId: string, needed: GatewayScope, authorization: string | null): string {
  const metadata = protectedResourceMetadataUrl(origin, catalogId);
  return `${challengeScheme(authorization)} realm="toolshed", error="insufficient_scope", scope="${needed}", resource_metadata="${metadata}"`;
}

/**
 * Whether a bearer value is a JWT (three base64url parts): an OAuth access token. Toolshed's API
 * tokens never contain a dot (lib/auth/tokens.ts), so the two never mix.
 */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

/**
 * Whether an Authorization header carries an OAuth access token (`Bearer <JWT>`, or `DPoP <token>`
 * for a DPoP-bound one) rather than an API token, or nothing of the kind.
 */
export function carriesOAuthToken(authorization: string | null): boolean {
  const match = /^(\w+)\s+(\S+)\s*$/.exec(authorization ?? "");
  if (!match) return false;
  const scheme = match[1].toLowerCase();
  return scheme === "dpop" || (scheme === "bearer" && looksLikeJwt(match[2]));
}

/** The scopes of a token's `scope` claim (space-separated) that the gateway knows. */
export function gatewayScopesOf(scopeClaim: unknown): GatewayScope[] {
  return typeof scopeClaim === "string" ? scopeClaim.split(" ").filter(isGatewayScope) : [];
}

export const OAUTH_DCR_ENV = "TOOLSHED_OAUTH_DCR";

/**
 * Whether clients may register themselves (RFC 7591) besides Client ID Metadata Documents: only
 * with TOOLSHED_OAUTH_DCR=1. The MCP authorization spec prefers CIMD; DCR lets anyone create clients.
 */
export function dynamicClientRegistrationEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return env[OAUTH_DCR_ENV]?.trim() === "1";
}

/** Query parameters of a signed authorization request that only the authorization server reads back. */
const SIGNATURE_PARAMETERS = new Set(["sig", "exp"]);

/**
 * The address that resumes an authorization request after sign-in: the authorization server sends
 * the browser to the sign-in page with the request's parameters (signed); signed in, the browser
 * asks the authorization endpoint again with them. Undefined when the query is no such request.
 * Always a path on this site, so it opens no redirect. A request that asked for a fresh sign-in
 * (`prompt=login`, `max_age`) has just had it: resumed with them, it would be sent back here for
 * ever, since the sign-in page lets a signed-in person straight through.
 */
export function authorizeReturnPath(query: URLSearchParams): string | undefined {
  if (!query.has("client_id") || !query.has("sig")) return undefined;
  const resumed = new URLSearchParams();
  for (const [name, value] of query) {
    if (SIGNATURE_PARAMETERS.has(name) || name === "max_age") continue;
    if (name !== "prompt") resumed.append(name, value);
    else if (value.split(" ").some((prompt) => prompt !== "login"))
      resumed.append(
        name,
        value
          .split(" ")
          .filter((prompt) => prompt !== "login")
          .join(" "),
      );
  }
  return `/api/auth/oauth2/authorize?${resumed.toString()}`;
}

/**
 * What a consent page offers of the scopes a client asked for: the gateway scopes the person's
 * role allows and `offline_access` (a refresh token) are granted; gateway scopes beyond the role
 * are withheld (the page says so; the gateway would refuse them anyway); unknown ones were refused
 * by the authorization endpoint before.
 */
export function consentScopes(requested: readonly string[], allowed: readonly GatewayScope[]): { granted: string[]; withheld: GatewayScope[] } {
  const asked = requested.filter(isGatewayScope);
  return {
    granted: requested.filter((scope) => scope === "offline_access" || (isGatewayScope(scope) && allowed.includes(scope))),
    withheld: asked.filter((scope) => !allowed.includes(scope)),
  };
}

/**
 * What a person reads on the error page when an authorization request fails before it can go back
 * to the client (RFC 6749 §4.1.2.1: never to an unregistered address). Our words per error code, so
 * a crafted link cannot make the page say something else.
 */
const AUTHORIZATION_ERROR_WORDS: Record<string, string> = {
  invalid_client: "The application is not registered with this Toolshed, or its registration was removed.",
  invalid_redirect: "The application asked to come back to an address it did not register, so Toolshed will not send you there.",
  invalid_target: "The catalog does not exist, or you have no role in its team. Ask a team admin for a role, then start again.",
  invalid_scope: "The application asked for access that Toolshed's gateways do not offer (they offer tools:read and tools:call).",
  invalid_request: "The application's authorization request is incomplete or malformed.",
  access_denied: "Access was denied.",
  unsupported_response_type: "The application asked for a kind of authorization Toolshed does not offer (only the authorization code flow with PKCE).",
};

/** The sentence for an authorization error code: ours for a known one, a generic one for any other. */
export function authorizationErrorWords(code: string | null): string {
  return code !== null && Object.hasOwn(AUTHORIZATION_ERROR_WORDS, code) ? AUTHORIZATION_ERROR_WORDS[code] : "The authorization request was refused.";
}
