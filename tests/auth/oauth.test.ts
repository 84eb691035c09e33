import { describe, expect, it } from "vitest";
import {
  authorizationErrorWords,
  authorizeReturnPath,
  carriesOAuthToken,
  catalogOfGatewayResource,
  dynamicClientRegistrationEnabled,
  GATEWAY_SCOPES,
  gatewayChallenge,
  gatewayResourceUrl,
  gatewayScopesOf,
  looksLikeJwt,
  OAUTH_DCR_ENV,
  protectedResourceMetadataUrl,
  scopesAllowedFor,
  scopesCover,
} from "@/lib/auth/oauth";
import { newApiToken } from "@/lib/auth/tokens";

const ORIGIN = "https://toolshed.example.com";

describe("a catalog gateway as an OAuth resource", () => {
  it("is named by its absolute URL, and only that spelling names it back", () => {
    expect(gatewayResourceUrl(ORIGIN, "team a")).toBe(`${ORIGIN}/api/catalogs/team%20a/mcp`);
    expect(catalogOfGatewayResource(ORIGIN, `${ORIGIN}/api/catalogs/team%20a/mcp`)).toBe("team a");
    for (const other of [
      "https://elsewhere.example.com/api/catalogs/team/mcp",
      `${ORIGIN}/api/catalogs/team/mcp?x=1`,
      `${ORIGIN}/api/catalogs/team/mcp#f`,
      `${ORIGIN}/api/catalogs/team/tools`,
      `${ORIGIN}/api/catalogs/a/b/mcp`,
      `${ORIGIN}/api/catalogs/%zz/mcp`,
      "not a url",
    ]) {
      expect(catalogOfGatewayResource(ORIGIN, other), other).toBeUndefined();
    }
  });

  it("has its metadata at RFC 9728's path-inserted address, which its 401 challenge names", () => {
    const metadata = protectedResourceMetadataUrl(ORIGIN, "team");
    expect(metadata).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/api/catalogs/team/mcp`);
    expect(gatewayChallenge(ORIGIN, "team", null)).toBe(`Bearer realm="toolshed", resource_metadata="${metadata}", scope="tools:read tools:call"`);
    expect(gatewayChallenge(ORIGIN, "team", "Bearer x")).toMatch(/^Bearer .*error="invalid_token"$/);
    expect(gatewayChallenge(ORIGIN, "team", "DPoP x")).toMatch(/^DPoP .*error="invalid_token"$/);
  });
});

describe("gateway scopes", () => {
  it("are what the person's role in the catalog's team allows: today any role lists and calls, as a read token does", () => {
    expect(scopesAllowedFor("read")).toEqual([...GATEWAY_SCOPES]);
    expect(scopesAllowedFor("admin")).toEqual([...GATEWAY_SCOPES]);
  });

  it("are read from a token's scope claim, ignoring others; tools:call covers tools:read, not the reverse", () => {
    expect(gatewayScopesOf("offline_access tools:read openid")).toEqual(["tools:read"]);
    expect(gatewayScopesOf(undefined)).toEqual([]);
    expect(scopesCover(["tools:call"], "tools:read")).toBe(true);
    expect(scopesCover(["tools:read"], "tools:call")).toBe(false);
    expect(scopesCover([], "tools:read")).toBe(false);
  });
});

describe("bearer values", () => {
  it("tell OAuth access tokens (JWTs) from Toolshed's API tokens, which have no dots", () => {
    expect(looksLikeJwt("eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln")).toBe(true);
    expect(looksLikeJwt(newApiToken())).toBe(false);
    expect(looksLikeJwt("a.b")).toBe(false);
    expect(carriesOAuthToken("Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln")).toBe(true);
    expect(carriesOAuthToken("DPoP anything")).toBe(true);
    expect(carriesOAuthToken(`Bearer ${newApiToken()}`)).toBe(false);
    expect(carriesOAuthToken("Basic dXNlcjpwYXNz")).toBe(false);
    expect(carriesOAuthToken(null)).toBe(false);
  });
});

describe("resuming an authorization request after sign-in", () => {
  it("goes back to the authorization endpoint with the request's parameters, without the signature", () => {
    const query = new URLSearchParams({ client_id: "https://client.example/meta.json", resource: `${ORIGIN}/api/catalogs/t/mcp`, exp: "1", sig: "s" });
    expect(authorizeReturnPath(query)).toBe(
      `/api/auth/oauth2/authorize?client_id=${encodeURIComponent("https://client.example/meta.json")}&resource=${encodeURIComponent(`${ORIGIN}/api/catalogs/t/mcp`)}`,
    );
  });

  it("leaves out the fresh sign-in the request asked for, which has just happened", () => {
    const query = new URLSearchParams({ client_id: "c", prompt: "login consent", max_age: "0", sig: "s" });
    expect(authorizeReturnPath(query)).toBe("/api/auth/oauth2/authorize?client_id=c&prompt=consent");
    expect(authorizeReturnPath(new URLSearchParams({ client_id: "c", prompt: "login", sig: "s" }))).toBe("/api/auth/oauth2/authorize?client_id=c");
  });

  it("is nothing for an ordinary sign-in", () => {
    expect(authorizeReturnPath(new URLSearchParams({ next: "/catalogs" }))).toBeUndefined();
    expect(authorizeReturnPath(new URLSearchParams({ client_id: "x" }))).toBeUndefined();
  });
});

describe("dynamic client registration", () => {
  it("is off unless the operator sets TOOLSHED_OAUTH_DCR=1", () => {
    expect(dynamicClientRegistrationEnabled({})).toBe(false);
    expect(dynamicClientRegistrationEnabled({ [OAUTH_DCR_ENV]: "true" })).toBe(false);
    expect(dynamicClientRegistrationEnabled({ [OAUTH_DCR_ENV]: "1" })).toBe(true);
  });
});

describe("the authorization error page's words", () => {
  it("are Toolshed's own for each known code, and a generic sentence for any other, whatever the link says", () => {
    const generic = "The authorization request was refused.";
    expect(authorizationErrorWords("invalid_target")).toContain("no role in its team");
    expect(authorizationErrorWords("toString")).toBe(generic);
    expect(authorizationErrorWords("call 555-0100 for support")).toBe(generic);
    expect(authorizationErrorWords(null)).toBe(generic);
  });
});
