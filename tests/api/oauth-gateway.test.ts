import { createHash, generateKeyPairSync, type KeyObject, randomBytes, randomUUID, sign } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getAuth } from "@/app/_services/auth";
import { readConsentRequest } from "@/app/_services/oauth-consent";
import { grantsOf, revokeGrant } from "@/app/_services/oauth-grants";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { revokeOAuthGrant } from "@/db/queries/oauth";
import { oauthConsents } from "@/db/tables";
import { removeMember, rolesOfUser } from "@/db/queries/teams";
import { findUserByEmail } from "@/db/queries/users";
import type { UserPrincipal } from "@/lib/auth/policy";
import { PEER_ADDRESS_HEADER, peerAddressHeaderValue } from "@/lib/auth/peer-address";
import { routeApiRequest } from "../support/api-routes";
import { useGatewayClients } from "../support/gateway-clients";
import { APP_ORIGIN, createTestToken, jsonRequest, useFreshDatabase } from "./helpers";
import { signedInAs } from "./sessions";

/**
 * The catalog gateways as OAuth protected resources (issue 27), through the whole flow an MCP
 * client goes through: discovery, authorization code with PKCE for one gateway, consent, the
 * token, and the gateway taking it, for that catalog only, within the token's scopes, until the
 * grant is revoked.
 */

const connectAs = useGatewayClients("oauth-gateway-test");
const REDIRECT_URI = "http://127.0.0.1:8765/callback";
const gatewayUrl = (catalog: string) => `${APP_ORIGIN}/api/catalogs/${catalog}/mcp`;

let db: Db;
let cookie: string;
let clientId: string;
let testNumber = 0;

/**
 * A request to Toolshed from this test's own client address: better-auth limits its OAuth
 * endpoints per address (e.g. 20 token requests a minute), and the file's tests together ask more.
 */
function send(request: Request): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.set(PEER_ADDRESS_HEADER, peerAddressHeaderValue(`10.0.${testNumber}.1`));
  return routeApiRequest(new Request(request, { headers }));
}

beforeEach(async () => {
  testNumber += 1;
  db = await useFreshDatabase();
  for (const name of ["Team", "Other"]) expect((await catalogsRoute.POST(jsonRequest("POST", { name }))).status).toBe(201);
  cookie = await signedInAs(db, "ada@example.com", "viewer");
  // Only instance admins manage OAuth clients through the provider's endpoints; MCP clients come through CIMD.
  const operator = await signedInAs(db, "operator@example.com", null, "default", { instanceAdmin: true });
  const client = await getAuth().api.adminCreateOAuthClient({
    headers: { cookie: operator },
    body: { client_name: "Test agent", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", application_type: "native" },
  });
  clientId = client.client_id;
});

const get = (path: string, headers: Record<string, string> = {}) => send(new Request(new URL(path, APP_ORIGIN), { headers }));

/** Starts the authorization code flow with PKCE for the gateway of `catalog`, signed in: where it sends the browser (the consent page), and the PKCE verifier. */
async function askAuthorization(catalog: string, scope: string, as = cookie): Promise<{ consentPage: URL; verifier: string }> {
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope,
    state: "some-state",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    resource: gatewayUrl(catalog),
  });
  const toConsent = await get(`/api/auth/oauth2/authorize?${query}`, { cookie: as });
  expect(toConsent.status).toBe(302);
  const consentPage = new URL(toConsent.headers.get("location")!, APP_ORIGIN);
  expect(consentPage.pathname).toBe("/oauth/consent");
  return { consentPage, verifier };
}

/** Runs the authorization code flow with PKCE for the gateway of `catalog`, consenting (bypassing the consent page); the token endpoint's response. */
async function exchange(
  catalog: string,
  scope: string,
  {
    as = cookie,
    tokenHeaders = {},
    beforeToken,
    tokenResource = gatewayUrl(catalog),
  }: { as?: string; tokenHeaders?: Record<string, string>; beforeToken?: () => Promise<void>; tokenResource?: string } = {},
): Promise<Response> {
  const { consentPage, verifier } = await askAuthorization(catalog, scope, as);
  const consent = await send(
    new Request(`${APP_ORIGIN}/api/auth/oauth2/consent`, {
      method: "POST",
      headers: { cookie: as, origin: APP_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ accept: true, oauth_query: consentPage.search.slice(1) }),
    }),
  );
  expect(consent.status).toBe(200);
  const back = new URL(((await consent.json()) as { url: string }).url);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
  expect(back.searchParams.get("state")).toBe("some-state");
  await beforeToken?.();
  return tokenRequest(
    {
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      resource: tokenResource,
    },
    tokenHeaders,
  );
}

const TOKEN_ENDPOINT = `${APP_ORIGIN}/api/auth/oauth2/token`;

const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  send(
    new Request(TOKEN_ENDPOINT, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ client_id: clientId, ...fields }),
    }),
  );

/** The token endpoint's answer to the whole flow, which must succeed. */
async function authorize(catalog: string, scope = "tools:read tools:call"): Promise<{ access_token: string; scope: string; refresh_token?: string }> {
  const token = await exchange(catalog, scope);
  expect(token.status).toBe(200);
  return (await token.json()) as { access_token: string; scope: string; refresh_token?: string };
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

/** A POST of JSON-RPC to a catalog's gateway with a bearer token. */
const postGateway = (catalog: string, token: string | undefined, body: unknown = initialize, headers: Record<string, string> = {}) =>
  send(
    new Request(`${gatewayUrl(catalog)}?model=gpt-5&agent=build`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );

describe("discovery", () => {
  it("publishes each gateway's Protected Resource Metadata, and the authorization server's: code with S256 PKCE, CIMD, no self-registration", async () => {
    const resource = await get("/api/oauth/protected-resource/team");
    expect(resource.status).toBe(200);
    expect(await resource.json()).toMatchObject({
      resource: gatewayUrl("team"),
      authorization_servers: [`${APP_ORIGIN}/api/auth`],
      scopes_supported: ["tools:read", "tools:call"],
    });
    const server = await get("/api/oauth/authorization-server");
    const metadata = (await server.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: `${APP_ORIGIN}/api/auth`,
      authorization_endpoint: `${APP_ORIGIN}/api/auth/oauth2/authorize`,
      token_endpoint: `${APP_ORIGIN}/api/auth/oauth2/token`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
      client_id_metadata_document_supported: true,
    });
    expect(metadata.grant_types_supported).toEqual(["authorization_code", "refresh_token"]);
    expect(metadata.registration_endpoint).toBeUndefined();
  });

  it("answers a gateway request without credentials 401, pointing at the gateway's metadata", async () => {
    const response = await postGateway("team", undefined);
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate")!;
    expect(challenge).toContain(`resource_metadata="${APP_ORIGIN}/.well-known/oauth-protected-resource/api/catalogs/team/mcp"`);
    expect(challenge).toContain('scope="tools:read tools:call"');
    expect(challenge).not.toContain("invalid_token");
  });
});

describe("an OAuth access token at the gateway", () => {
  it("is bound to the gateway it was issued for: a JWT whose audience is that gateway", async () => {
    const { access_token, scope } = await authorize("team");
    expect(scope.split(" ").sort()).toEqual(["tools:call", "tools:read"]);
    const [, payload] = access_token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ aud: gatewayUrl("team"), iss: `${APP_ORIGIN}/api/auth`, client_id: clientId });
  });

  it("opens a session and calls tools on its catalog's gateway, as its person", async () => {
    const { access_token } = await authorize("team");
    const client = await connectAs(access_token, "model=gpt-5&agent=build", "team");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("ToolSearch");
    const found = await client.callTool({ name: "ToolSearch", arguments: { query: "issue" } });
    expect(found.isError).toBeFalsy();
  });

  it("is refused at another catalog's gateway, even one its person may use", async () => {
    const { access_token } = await authorize("team");
    const response = await postGateway("other", access_token);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(response.headers.get("www-authenticate")).toContain("/api/catalogs/other/mcp");
  });

  it("does no more than its scopes: tools:read lists and searches, and a call asks for tools:call", async () => {
    const { access_token } = await authorize("team", "tools:read");
    expect((await postGateway("team", access_token)).status).toBe(200);
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ToolCall", arguments: {} } };
    const refused = await postGateway("team", access_token, call, { "mcp-session-id": "any" });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="tools:call"');
    const search = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ToolSearch", arguments: { query: "x" } } };
    // Past the scope check, to the session lookup (an unknown session is 404).
    expect((await postGateway("team", access_token, search, { "mcp-session-id": "any" })).status).toBe(404);
  });

  it("stops working on the next request once the grant is revoked", async () => {
    const { access_token } = await authorize("team");
    expect((await postGateway("team", access_token)).status).toBe(200);
    const user = await findUserByEmail(db, "ada@example.com");
    expect(await revokeOAuthGrant(db, user!.id, clientId)).toBe(true);
    const response = await postGateway("team", access_token);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("revoked");
  });

  it("gives nothing once its person has left the catalog's team: the catalog does not exist for them", async () => {
    const { access_token } = await authorize("team");
    const user = await findUserByEmail(db, "ada@example.com");
    await removeMember(db, "default", user!.id);
    expect((await postGateway("team", access_token)).status).toBe(404);
  });

  it("is refused when forged, and API tokens go on working beside OAuth", async () => {
    const { access_token } = await authorize("team");
    const [header, payload] = access_token.split(".");
    expect((await postGateway("team", `${header}.${payload}.${"A".repeat(86)}`)).status).toBe(401);
    expect((await postGateway("team", await createTestToken(db, "read"))).status).toBe(200);
  });
});

describe("a DPoP-bound access token (RFC 9449)", () => {
  it("is taken as `Authorization: DPoP` with a fresh proof of its key for the gateway, and refused as a bearer token or with a replayed proof", async () => {
    const key = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const token = await exchange("team", "tools:read", { tokenHeaders: { dpop: dpopProof(key, "POST", TOKEN_ENDPOINT) } });
    expect(token.status).toBe(200);
    const { access_token, token_type } = (await token.json()) as { access_token: string; token_type: string };
    expect(token_type).toBe("DPoP");
    const proof = dpopProof(key, "POST", gatewayUrl("team"), access_token);
    expect((await postGateway("team", undefined, initialize, { authorization: `DPoP ${access_token}`, dpop: proof })).status).toBe(200);
    const replayed = await postGateway("team", undefined, initialize, { authorization: `DPoP ${access_token}`, dpop: proof });
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get("www-authenticate")).toMatch(/^DPoP realm="toolshed", resource_metadata=/);
    expect((await postGateway("team", access_token)).status).toBe(401);
  });
});

describe("authorization requests", () => {
  const authorizeQuery = (catalog: string) =>
    new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: "tools:read",
      code_challenge: createHash("sha256").update("v".repeat(43)).digest("base64url"),
      code_challenge_method: "S256",
      resource: gatewayUrl(catalog),
    });

  it("from nobody signed in go to sign in first, whatever the catalog, and come back as they were", async () => {
    for (const catalog of ["team", "nowhere"]) {
      const response = await get(`/api/auth/oauth2/authorize?${authorizeQuery(catalog)}`);
      expect(response.status).toBe(302);
      const signIn = new URL(response.headers.get("location")!, APP_ORIGIN);
      expect(signIn.pathname).toBe("/sign-in");
      expect(signIn.searchParams.get("next")).toBe(`/api/auth/oauth2/authorize?${authorizeQuery(catalog)}`);
    }
  });

  it("name exactly one catalog gateway: none, another resource or two gateways are refused", async () => {
    for (const resources of [[], ["https://elsewhere.example/api"], [gatewayUrl("team"), gatewayUrl("other")]]) {
      const query = authorizeQuery("team");
      query.delete("resource");
      for (const resource of resources) query.append("resource", resource);
      const response = await get(`/api/auth/oauth2/authorize?${query}`, { cookie });
      expect(response.status, resources.join(" ")).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_target" });
    }
  });

  it("tell a signed-in person nothing of catalogs they have no role in: one that exists and one that does not are refused alike", async () => {
    // A member asked first, so the gateway of "team" is a resource the provider knows.
    await authorize("team", "tools:read");
    const stranger = await signedInAs(db, "stranger@example.com", null);
    const answers = [];
    for (const catalog of ["team", "nowhere"]) {
      const response = await get(`/api/auth/oauth2/authorize?${authorizeQuery(catalog)}`, { cookie: stranger });
      answers.push({ status: response.status, location: response.headers.get("location"), body: ((await response.json()) as { error: string }).error });
    }
    expect(answers).toEqual([
      { status: 400, location: null, body: "invalid_target" },
      { status: 400, location: null, body: "invalid_target" },
    ]);
  });
});

describe("token issuance", () => {
  it("refuses a token for a catalog the person lost their role in between consent and the code exchange", async () => {
    const removed = async () => removeMember(db, "default", (await findUserByEmail(db, "ada@example.com"))!.id);
    const token = await exchange("team", "tools:read", { beforeToken: removed });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ error: "invalid_target" });
  });

  it("refuses a token for another gateway than the one authorized, at the code exchange and at a refresh", async () => {
    // The other gateway is a resource the provider knows, and the person may use it: only the binding refuses.
    await authorize("other", "tools:read");
    const swapped = await exchange("team", "tools:read", { tokenResource: gatewayUrl("other") });
    expect(swapped.status).toBe(400);
    const { refresh_token } = await authorize("team", "tools:read offline_access");
    const elsewhere = await tokenRequest({ grant_type: "refresh_token", refresh_token: refresh_token!, resource: gatewayUrl("other") });
    expect(elsewhere.status).toBe(400);
  });

  it("renews one gateway's token after the client was allowed into another gateway too", async () => {
    const { refresh_token } = await authorize("team", "tools:read offline_access");
    await authorize("other", "tools:read offline_access");
    const renewed = await tokenRequest({ grant_type: "refresh_token", refresh_token: refresh_token!, resource: gatewayUrl("team") });
    expect(renewed.status).toBe(200);
    expect((await postGateway("team", ((await renewed.json()) as { access_token: string }).access_token)).status).toBe(200);
  });

  it("renews a token with the refresh token while the person keeps their role, and no longer once they lost it", async () => {
    const { refresh_token } = await authorize("team", "tools:read offline_access");
    expect(refresh_token).toBeDefined();
    const renewed = await tokenRequest({ grant_type: "refresh_token", refresh_token: refresh_token!, resource: gatewayUrl("team") });
    expect(renewed.status).toBe(200);
    const { access_token, refresh_token: next } = (await renewed.json()) as { access_token: string; refresh_token: string };
    expect((await postGateway("team", access_token)).status).toBe(200);
    await removeMember(db, "default", (await findUserByEmail(db, "ada@example.com"))!.id);
    const refused = await tokenRequest({ grant_type: "refresh_token", refresh_token: next, resource: gatewayUrl("team") });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_target" });
  });
});

describe("the consent page", () => {
  it("names the client, the catalog and the scopes the person's role allows, from the signed request only", async () => {
    const { consentPage } = await askAuthorization("team", "tools:read tools:call offline_access");
    const principal = await userPrincipal("ada@example.com");
    const request = await readConsentRequest(consentPage.searchParams, principal);
    expect(request).toMatchObject({ kind: "ask", clientName: "Test agent", clientId, catalogId: "team", catalogName: "Team", withheld: [] });
    expect(request.kind === "ask" && request.scope.split(" ").sort()).toEqual(["offline_access", "tools:call", "tools:read"]);
    const tampered = new URLSearchParams(consentPage.searchParams);
    tampered.set("resource", gatewayUrl("other"));
    expect(await readConsentRequest(tampered, principal)).toEqual({ kind: "invalid" });
  });

  it("lets a person who has no role in the catalog only refuse", async () => {
    const { consentPage } = await askAuthorization("team", "tools:read");
    await signedInAs(db, "stranger@example.com", null);
    const request = await readConsentRequest(consentPage.searchParams, await userPrincipal("stranger@example.com"));
    expect(request).toMatchObject({ kind: "refused", clientName: "Test agent" });
  });
});

describe("a person's grants (Settings)", () => {
  it("lists the clients they allowed, with scopes and catalogs, and revokes one for good", async () => {
    await authorize("team", "tools:read offline_access");
    await authorize("other", "tools:read tools:call offline_access");
    const ada = await userPrincipal("ada@example.com");
    // Two authorizations at once may leave two consents for one client: listed once, revoked together.
    const twin = { clientId, userId: ada.id, scopes: '["tools:read"]', createdAt: new Date(0), updatedAt: new Date(0) };
    await db.insert(oauthConsents).values({ id: "twin", ...twin });
    const [grant, ...others] = await grantsOf(ada);
    expect(others).toEqual([]);
    // One consent per client, its scopes those of the last authorization; the catalogs of every live token.
    expect(grant).toMatchObject({ clientId, clientName: "Test agent", catalogs: ["other", "team"] });
    expect(grant.scopes.sort()).toEqual(["offline_access", "tools:call", "tools:read"]);
    await revokeGrant(ada, clientId);
    expect(await grantsOf(ada)).toEqual([]);
    await expect(revokeGrant(ada, clientId)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("OAuth clients", () => {
  it("are not created by ordinary signed-in people through the provider's endpoints, nor registered dynamically unless the operator allows it", async () => {
    const create = await send(
      new Request(`${APP_ORIGIN}/api/auth/oauth2/create-client`, {
        method: "POST",
        headers: { cookie, origin: APP_ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["https://evil.example/cb"], token_endpoint_auth_method: "none" }),
      }),
    );
    expect(create.status).toBe(401);
    const register = await send(
      new Request(`${APP_ORIGIN}/api/auth/oauth2/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none", client_name: "x" }),
      }),
    );
    expect(register.status).toBeGreaterThanOrEqual(400);
  });
});

describe("attacks on the authorization server", () => {
  it("refuses a consent sent from another site with the person's cookie, and gives it no code", async () => {
    const { consentPage } = await askAuthorization("team", "tools:read tools:call");
    const forged = await send(
      new Request(`${APP_ORIGIN}/api/auth/oauth2/consent`, {
        method: "POST",
        headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
        body: JSON.stringify({ accept: true, oauth_query: consentPage.search.slice(1) }),
      }),
    );
    expect(forged.status).toBe(403);
    expect(await forged.text()).not.toContain("code=");
  });

  it("never sends the browser to an address the client did not register, however it is disguised", async () => {
    const disguises = [
      "https://evil.example/callback",
      `${REDIRECT_URI}/../../evil`,
      `${REDIRECT_URI}?next=https://evil.example`,
      "http://127.0.0.1:8765.evil.example/callback",
      "http://127.0.0.1:8765@evil.example/callback",
      "HTTP://127.0.0.1:8765/CALLBACK",
    ];
    for (const redirectUri of disguises) {
      const query = new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: "tools:read",
        state: "s",
        code_challenge: createHash("sha256").update("verifier").digest("base64url"),
        code_challenge_method: "S256",
        resource: gatewayUrl("team"),
      });
      const answer = await get(`/api/auth/oauth2/authorize?${query}`, { cookie });
      const location = answer.headers.get("location");
      // Refused, or sent to an error page of Toolshed's own: never to the disguised address.
      if (location) expect(new URL(location, APP_ORIGIN).origin, redirectUri).toBe(APP_ORIGIN);
      else expect(answer.status, redirectUri).toBeGreaterThanOrEqual(400);
      expect(new URL(location ?? "/", APP_ORIGIN).pathname, redirectUri).not.toBe("/oauth/consent");
    }
  });

  it("shows a person's browser Toolshed's error page when a request cannot go back to its client, and machines the JSON", async () => {
    const ask = (overrides: Record<string, string>, accept: string) => {
      const query = new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        scope: "tools:read",
        state: "s",
        code_challenge: createHash("sha256").update("verifier").digest("base64url"),
        code_challenge_method: "S256",
        resource: gatewayUrl("team"),
        ...overrides,
      });
      return get(`/api/auth/oauth2/authorize?${query}`, { cookie, accept });
    };
    const html = "text/html,application/xhtml+xml";
    for (const [overrides, code] of [
      [{ redirect_uri: "https://evil.example/cb" }, "invalid_redirect"],
      [{ client_id: "no-such-client" }, "invalid_client"],
      [{ resource: gatewayUrl("nowhere") }, "invalid_target"],
    ] as const) {
      const answer = await ask(overrides, html);
      expect(answer.status, code).toBe(302);
      expect(answer.headers.get("location"), code).toBe(`${APP_ORIGIN}/oauth/error?error=${code}`);
    }
    const machine = await ask({ resource: gatewayUrl("nowhere") }, "application/json");
    expect(machine.status).toBe(400);
    expect(await machine.json()).toMatchObject({ error: "invalid_target" });
  });

  it("redeems a code only with its PKCE verifier, and only once", async () => {
    const { consentPage, verifier } = await askAuthorization("team", "tools:read");
    const consent = await send(
      new Request(`${APP_ORIGIN}/api/auth/oauth2/consent`, {
        method: "POST",
        headers: { cookie, origin: APP_ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ accept: true, oauth_query: consentPage.search.slice(1) }),
      }),
    );
    const code = new URL(((await consent.json()) as { url: string }).url).searchParams.get("code")!;
    const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, resource: gatewayUrl("team") };
    expect((await tokenRequest({ ...fields, code_verifier: randomBytes(32).toString("base64url") })).status).toBe(400);
    expect((await tokenRequest({ ...fields })).status).toBe(400);
    expect((await tokenRequest({ ...fields, code_verifier: verifier })).status).toBe(200);
    expect((await tokenRequest({ ...fields, code_verifier: verifier })).status).toBe(400);
  });

  it("grants no scope beyond the gateway's, neither at authorization nor at a refresh", async () => {
    const beyond = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: "tools:read admin",
      state: "s",
      code_challenge: createHash("sha256").update("verifier").digest("base64url"),
      code_challenge_method: "S256",
      resource: gatewayUrl("team"),
    });
    const asked = await get(`/api/auth/oauth2/authorize?${beyond}`, { cookie });
    expect(new URL(asked.headers.get("location") ?? "/", APP_ORIGIN).pathname).not.toBe("/oauth/consent");
    const { refresh_token } = await authorize("team", "tools:read offline_access");
    const wider = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: refresh_token!,
      scope: "tools:read tools:call",
      resource: gatewayUrl("team"),
    });
    expect(wider.status).toBe(400);
  });

  it("takes no other token signed with Toolshed's keys at a gateway: a session's JWT is not an access token for it", async () => {
    const sessionJwt = await get("/api/auth/token", { cookie });
    if (sessionJwt.status === 200) {
      const { token } = (await sessionJwt.json()) as { token: string };
      expect((await postGateway("team", token)).status).toBe(401);
    } else expect(sessionJwt.status).toBe(404);
  });
});

async function userPrincipal(email: string): Promise<UserPrincipal> {
  const user = (await findUserByEmail(db, email))!;
  return { kind: "user", id: user.id, email, name: user.name, roles: await rolesOfUser(db, user.id), instanceAdmin: false };
}

/** A DPoP proof (RFC 9449 §4.2) signed with `key` for one request; with `accessToken`, bound to it (`ath`). */
function dpopProof(key: { privateKey: KeyObject; publicKey: KeyObject }, method: string, url: string, accessToken?: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const header = encode({ typ: "dpop+jwt", alg: "ES256", jwk: key.publicKey.export({ format: "jwk" }) });
  const payload = encode({
    jti: randomUUID(),
    htm: method,
    htu: url,
    iat: Math.floor(Date.now() / 1000),
    ...(accessToken ? { ath: createHash("sha256").update(accessToken).digest("base64url") } : {}),
  });
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), { key: key.privateKey, dsaEncoding: "ieee-p1363" });
  return `${header}.${payload}.${signature.toString("base64url")}`;
}
