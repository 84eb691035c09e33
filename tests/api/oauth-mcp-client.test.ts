import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getAuth } from "@/app/_services/auth";
import { closeGatewaySessions } from "@/app/_services/mcp-gateway";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { routeApiRequest } from "../support/api-routes";
import { ClientApplicationState } from "../support/oauth-client-application";
import { rewritePath } from "../support/next-rewrites";
import { APP_ORIGIN, jsonRequest, useFreshDatabase } from "./helpers";
import { signedInAs } from "./sessions";

/**
 * The official MCP SDK's client finds its way in on its own: refused with a 401 that points at the
 * gateway's Protected Resource Metadata, it reads that and the authorization server's metadata,
 * sends the person to authorize (here: the test signs in and consents as they would), exchanges
 * the code with PKCE for a token bound to the gateway, and connects.
 */

const REDIRECT_URI = "http://127.0.0.1:8765/callback";
const GATEWAY = `${APP_ORIGIN}/api/catalogs/team/mcp?model=gpt-5&agent=build`;

/** Every path asked for, with the status of its answer. */
const asked: string[] = [];

/** Toolshed as a client sees it at APP_ORIGIN: every URL routed in-process, through next.config.mjs's rewrites. */
const toolshedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const response = await routeApiRequest(new Request(new URL((await rewritePath(url.pathname)) + url.search, url), request));
  asked.push(`${request.method} ${url.pathname} ${response.status}`);
  return response;
};

let cookie: string;
let clientId: string;

beforeEach(async () => {
  asked.length = 0;
  const db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  cookie = await signedInAs(db, "ada@example.com", "viewer");
  const operator = await signedInAs(db, "operator@example.com", null, "default", { instanceAdmin: true });
  const client = await getAuth().api.adminCreateOAuthClient({
    headers: { cookie: operator },
    body: { client_name: "SDK client", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", application_type: "native" },
  });
  clientId = client.client_id;
});

afterEach(() => closeGatewaySessions());

/** The person's part: signed in, they open the authorization URL and allow; the code their browser brings back. */
async function personAllows(authorizationUrl: URL): Promise<string> {
  const toConsent = await toolshedFetch(authorizationUrl, { headers: { cookie }, redirect: "manual" });
  const consentPage = new URL(toConsent.headers.get("location")!, APP_ORIGIN);
  expect(consentPage.pathname).toBe("/oauth/consent");
  const consent = await toolshedFetch(`${APP_ORIGIN}/api/auth/oauth2/consent`, {
    method: "POST",
    headers: { cookie, origin: APP_ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ accept: true, oauth_query: consentPage.search.slice(1) }),
  });
  return new URL(((await consent.json()) as { url: string }).url).searchParams.get("code")!;
}

describe("the MCP SDK's OAuth client", () => {
  it("discovers the authorization server from the gateway's 401, gets a token for that gateway and connects with it", async () => {
    const provider = new ClientApplicationState(
      REDIRECT_URI,
      { client_name: "SDK client", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" },
      { client_id: clientId },
    );
    const connect = () => new StreamableHTTPClientTransport(new URL(GATEWAY), { authProvider: provider, fetch: toolshedFetch });
    const first = connect();
    await expect(new Client({ name: "sdk", version: "1" }).connect(first)).rejects.toThrow(/Unauthorized/i);
    const authorizationUrl = provider.authorizationUrl!;
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${APP_ORIGIN}/api/auth/oauth2/authorize`);
    // The resource the SDK asks for is the gateway itself, as its metadata names it (no query).
    expect(authorizationUrl.searchParams.get("resource")).toBe(`${APP_ORIGIN}/api/catalogs/team/mcp`);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(asked).toEqual(
      expect.arrayContaining([
        "POST /api/catalogs/team/mcp 401",
        "GET /.well-known/oauth-protected-resource/api/catalogs/team/mcp 200",
        expect.stringMatching(/^GET \/\.well-known\/oauth-authorization-server(\/api\/auth)? 200$/),
      ]),
    );
    await first.finishAuth(await personAllows(authorizationUrl));
    expect(provider.tokens()?.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const client = new Client({ name: "sdk", version: "1" });
    await client.connect(connect());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("ToolSearch");
    await client.close();
  });
});
