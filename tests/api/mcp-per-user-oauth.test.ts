import { createHash, randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getAuth } from "@/app/_services/auth";
import { startOAuthConnection } from "@/app/_services/mcp-connections";
import { disconnectMcpServer, syncMcpServer } from "@/app/_services/sources";
import * as catalogsRoute from "@/app/api/catalogs/route";
import * as callbackRoute from "@/app/connections/[catalog]/[server]/callback/route";
import type { Db } from "@/db/client";
import { createMcpServer, getMcpServer } from "@/db/queries/mcp-servers";
import { getMcpUserCredential } from "@/db/queries/mcp-user-credentials";
import type { UserPrincipal } from "@/lib/auth/policy";
import { useEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { useGatewayClients } from "../support/gateway-clients";
import { type OAuthMcpDouble, serveOAuthMcp } from "../support/oauth-mcp-server";
import { APP_ORIGIN, jsonRequest, params, useFreshDatabase } from "./helpers";
import { signedInAs, signedInPerson } from "./sessions";

/**
 * A per-person OAuth server: each person signs in at the server's own authorization server (found
 * from its metadata, Toolshed registering as their client), and each call carries the token of the
 * person who made it, refreshed when the server refuses it, never anyone else's.
 */

useEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" });
const connectAs = useGatewayClients("per-user-oauth-test");
const QUERY = "model=gpt-5&agent=build";

let db: Db;
let upstream: OAuthMcpDouble;

interface Person {
  cookie: string;
  principal: UserPrincipal;
}

const person = (email: string) => signedInPerson(db, email);

/** The person clicks Connect: where Toolshed sends their browser (the server's authorization endpoint). */
async function startSignIn(who: Person): Promise<URL> {
  const started = await startOAuthConnection(db, who.principal, "team", "gh");
  if (!("authorizationUrl" in started)) throw new Error("Expected a sign-in to start");
  return new URL(started.authorizationUrl);
}

/** Their browser at the authorization server, which approves at once: where it sends them back (Toolshed's callback, with code and state). */
async function approve(authorizationUrl: URL): Promise<string> {
  const answer = await fetch(authorizationUrl, { redirect: "manual" });
  expect(answer.status).toBe(302);
  return answer.headers.get("location")!;
}

/** Toolshed's callback, opened by whoever holds `cookie`: where it sends the browser next. */
async function callback(location: string, cookie: string): Promise<URL> {
  const response = await callbackRoute.GET(new Request(location, { headers: { cookie } }), params({ catalog: "team", server: "gh" }));
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location")!);
}

async function connect(who: Person): Promise<void> {
  const back = await callback(await approve(await startSignIn(who)), who.cookie);
  expect(back.searchParams.get("failed")).toBeNull();
  expect(back.searchParams.get("connected")).toBe("1");
}

const accessTokenOf = async (who: Person) => (await getMcpUserCredential(db, "team", "gh", who.principal.id))?.secrets.oauth?.tokens?.access_token;

async function callAs(who: Person) {
  const client = await connectAs("", QUERY, "team", { headers: { cookie: who.cookie, origin: APP_ORIGIN } });
  return client.callTool({ name: "gh__whoami", arguments: {} });
}

const REDIRECT_URI = "http://127.0.0.1:8765/callback";

/** An OAuth access token of Toolshed's for the catalog's gateway, as an MCP client gets it for the person signed in with `cookie`. */
async function gatewayAccessToken(cookie: string): Promise<string> {
  const operator = await signedInAs(db, "operator@example.com", null, "default", { instanceAdmin: true });
  const { client_id } = await getAuth().api.adminCreateOAuthClient({
    headers: { cookie: operator },
    body: { client_name: "MCP client", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", application_type: "native" },
  });
  const verifier = randomBytes(32).toString("base64url");
  const resource = `${APP_ORIGIN}/api/catalogs/team/mcp`;
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const ask = { response_type: "code", client_id, redirect_uri: REDIRECT_URI, scope: "tools:read tools:call", resource, state: "s" };
  const query = new URLSearchParams({ ...ask, code_challenge: challenge, code_challenge_method: "S256" });
  const toConsent = await routeApiRequest(new Request(`${APP_ORIGIN}/api/auth/oauth2/authorize?${query}`, { headers: { cookie } }));
  const consentQuery = new URL(toConsent.headers.get("location")!, APP_ORIGIN).search.slice(1);
  const consent = await routeApiRequest(
    new Request(`${APP_ORIGIN}/api/auth/oauth2/consent`, {
      method: "POST",
      headers: { cookie, origin: APP_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ accept: true, oauth_query: consentQuery }),
    }),
  );
  const code = new URL(((await consent.json()) as { url: string }).url).searchParams.get("code")!;
  const exchange = new URLSearchParams({ grant_type: "authorization_code", client_id, code, redirect_uri: REDIRECT_URI, code_verifier: verifier, resource });
  const token = await routeApiRequest(
    new Request(`${APP_ORIGIN}/api/auth/oauth2/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: exchange }),
  );
  return ((await token.json()) as { access_token: string }).access_token;
}

beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  upstream = await serveOAuthMcp();
  await createMcpServer(db, "team", { name: "gh", transport: "http", url: upstream.url, credentials: { mode: "per-user-oauth" } }, "test");
});

afterEach(async () => {
  await disconnectMcpServer("team", "gh");
  await upstream.close();
});

describe("a per-person OAuth server", () => {
  it("signs each person in at its own authorization server, and each call carries the caller's own token", async () => {
    const ada = await person("ada@example.com");
    const bob = await person("bob@example.com");
    const authorizationUrl = await startSignIn(ada);
    expect(authorizationUrl.origin).toBe(new URL(upstream.url).origin);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(`${APP_ORIGIN}/connections/team/gh/callback`);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    await callback(await approve(authorizationUrl), ada.cookie);
    // Ada's connection listed the server's tools.
    expect(await getMcpServer(db, "team", "gh")).toMatchObject({ status: "connected", lastError: null });
    await connect(bob);
    const [adaToken, bobToken] = [await accessTokenOf(ada), await accessTokenOf(bob)];
    expect(adaToken).toBeDefined();
    expect(bobToken).toBeDefined();
    expect(adaToken).not.toBe(bobToken);

    for (const [who, token] of [
      [ada, adaToken],
      [bob, bobToken],
      [ada, adaToken],
    ] as const) {
      const result = await callAs(who);
      expect(result.isError ?? false).toBe(false);
      expect(upstream.callHeaders.at(-1)).toBe(`Bearer ${token}`);
    }
    // Each person is a client of their own at the authorization server.
    expect(upstream.provider.clients.size).toBe(2);
  });

  it("never passes on the token the MCP client reached the gateway with: the server sees the person's own token for it", async () => {
    const ada = await person("ada@example.com");
    await connect(ada);
    const toolshedToken = await gatewayAccessToken(ada.cookie);
    const client = await connectAs(toolshedToken, QUERY);
    expect((await client.callTool({ name: "gh__whoami", arguments: {} })).isError ?? false).toBe(false);
    expect(upstream.callHeaders).toEqual([`Bearer ${await accessTokenOf(ada)}`]);
    expect(upstream.callHeaders[0]).not.toContain(toolshedToken);
  });

  it("refreshes a person's token the server no longer takes, through the SDK", async () => {
    const ada = await person("ada@example.com");
    await connect(ada);
    const first = (await accessTokenOf(ada))!;
    expect((await callAs(ada)).isError ?? false).toBe(false);
    upstream.provider.tokens.delete(first);
    const result = await callAs(ada);
    expect(result.isError ?? false).toBe(false);
    const refreshed = await accessTokenOf(ada);
    expect(refreshed).not.toBe(first);
    expect(upstream.callHeaders.at(-1)).toBe(`Bearer ${refreshed}`);
  });

  it("tells a person whose sign-in the server no longer takes, nor refreshes, to connect again", async () => {
    const ada = await person("ada@example.com");
    await connect(ada);
    upstream.provider.tokens.clear();
    upstream.provider.refreshTokens.clear();
    const result = await callAs(ada);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(`${APP_ORIGIN}/connections?catalog=team&server=gh`);
    expect(await accessTokenOf(ada)).toBeUndefined();
    // Connected again, the calls go through with the new token.
    await connect(ada);
    expect((await callAs(ada)).isError ?? false).toBe(false);
    expect(upstream.callHeaders.at(-1)).toBe(`Bearer ${await accessTokenOf(ada)}`);
  });

  it("lists with the person who connected last; when their sign-in fails, the others' calls go on and the next listing is someone else's", async () => {
    const ada = await person("ada@example.com");
    const bob = await person("bob@example.com");
    await connect(ada);
    await connect(bob);
    // Bob's sign-in is revoked at the server (no refresh either); Ada's token still works.
    upstream.provider.tokens.delete((await accessTokenOf(bob))!);
    upstream.provider.refreshTokens.clear();
    const failed = await syncMcpServer(db, "team", "gh");
    expect(failed.error).toBeDefined();
    expect(await accessTokenOf(bob)).toBeUndefined();
    // Bob's failed listing does not take the server from Ada.
    expect((await callAs(ada)).isError ?? false).toBe(false);
    expect((await syncMcpServer(db, "team", "gh")).error).toBeUndefined();
    expect(await getMcpServer(db, "team", "gh")).toMatchObject({ status: "connected" });
  });

  it("finishes only the sign-in its person started here: another person's answer, a forged state or one used already is refused", async () => {
    const ada = await person("ada@example.com");
    const bob = await person("bob@example.com");
    const adasAnswer = await approve(await startSignIn(ada));
    // Bob's browser brought Ada's code and state (a CSRF, or a mixed-up sign-in): refused, and nothing stored for him.
    const asBob = await callback(adasAnswer, bob.cookie);
    expect(asBob.origin).toBe(APP_ORIGIN);
    expect(asBob.pathname).toBe("/connections");
    expect(asBob.searchParams.get("failed")).toBe("mismatch");
    expect(await accessTokenOf(bob)).toBeUndefined();
    const forged = new URL(adasAnswer);
    forged.searchParams.set("state", "forged");
    expect((await callback(forged.href, ada.cookie)).searchParams.get("failed")).toBe("mismatch");
    // Without a session: nobody's sign-in.
    expect((await callback(adasAnswer, "")).searchParams.get("failed")).toBe("session");
    // Ada's own answer still completes it, once.
    expect((await callback(adasAnswer, ada.cookie)).searchParams.get("connected")).toBe("1");
    expect((await callback(adasAnswer, ada.cookie)).searchParams.get("failed")).toBe("mismatch");
  });

  it("takes an answer only from the authorization server the sign-in went to (RFC 9207's iss): another issuer's is a mix-up", async () => {
    const ada = await person("ada@example.com");
    const fromElsewhere = new URL(await approve(await startSignIn(ada)));
    fromElsewhere.searchParams.set("iss", "https://evil.example/");
    expect((await callback(fromElsewhere.href, ada.cookie)).searchParams.get("failed")).toBe("mismatch");
    expect(await accessTokenOf(ada)).toBeUndefined();
    // Its own issuer, as its metadata names it, completes the sign-in.
    const fromItsServer = new URL(await approve(await startSignIn(ada)));
    fromItsServer.searchParams.set("iss", `${new URL(upstream.url).origin}/`);
    expect((await callback(fromItsServer.href, ada.cookie)).searchParams.get("connected")).toBe("1");
    expect(await accessTokenOf(ada)).toBeDefined();
  });
});
