import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { APIRequestContext } from "@playwright/test";
import { ClientApplicationState } from "../tests/support/oauth-client-application";
import { processesMentioning, processMarker } from "../tests/support/processes";
import { SourcesPage } from "./pages/sources-page";
import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { ADMIN, APP_URL } from "./support/servers";

/**
 * Issue 27 against the production build, as an MCP client application connects by URL alone: the
 * MCP SDK's OAuth client is refused, reads the gateway's Protected Resource Metadata and the
 * authorization server's metadata (through the /.well-known rewrites), registers itself (Dynamic
 * Client Registration, on in the e2e app), and sends the person's browser to authorize; the person,
 * signed in, consents on the consent page; the client exchanges the code with PKCE, lists and calls
 * tools; revoking it in Settings shuts it out on its next request.
 */

/** Where the client application would receive the code: nothing listens, the browser's visit there is caught. */
const REDIRECT_URI = "http://127.0.0.1:8765/e2e-oauth-callback";
const CLIENT_NAME = "E2E MCP client";
const CLIENT_METADATA: OAuthClientMetadata = {
  client_name: CLIENT_NAME,
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code", "refresh_token"],
};

/** The MCP initialize request, sent with a bearer token by nobody signed in. */
const initializeWith = (anonymous: APIRequestContext, gateway: URL, token: string) =>
  anonymous.post(gateway.href, {
    headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
    data: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
    },
  });

test("an MCP client connects to a catalog's gateway by URL: metadata, registration, consent in the browser, token, tools, revocation", async ({
  page,
  request,
  playwright,
  browser,
}) => {
  // Requests of nobody signed in: the admin's session cookies would otherwise let them through.
  const anonymous = await playwright.request.newContext({ storageState: { cookies: [], origins: [] } });
  const catalogId = await createCatalog(request, "OAuth E2E");
  const otherCatalogId = await createCatalog(request, "OAuth E2E other");
  // An MCP server in the catalog, so that the client's token also calls a tool that runs upstream.
  const marker = processMarker("e2e-oauth");
  const sources = new SourcesPage(page, catalogId);
  await sources.goto();
  await sources.fillStdio({ name: "notes", command: "node", args: ["mcp-servers/demo-server.mjs", marker] });
  await sources.submit();
  await expect(sources.status("notes")).toHaveText("connected");
  const gateway = (catalog: string) => new URL(`/api/catalogs/${catalog}/mcp?model=gpt-5&agent=build`, APP_URL);

  // The metadata a client finds from the gateway's URL alone, at the well-known addresses.
  const refused = await anonymous.post(gateway(catalogId).href, { data: {} });
  expect(refused.status()).toBe(401);
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers()["www-authenticate"] ?? "")?.[1];
  expect(metadataUrl).toBe(`${APP_URL}/.well-known/oauth-protected-resource/api/catalogs/${catalogId}/mcp`);
  const resource = await (await anonymous.get(metadataUrl!)).json();
  expect(resource).toMatchObject({ resource: `${APP_URL}/api/catalogs/${catalogId}/mcp`, scopes_supported: ["tools:read", "tools:call"] });
  const server = await (await anonymous.get(`${APP_URL}/.well-known/oauth-authorization-server`)).json();
  expect(server.code_challenge_methods_supported).toEqual(["S256"]);
  expect(server.registration_endpoint).toBe(`${APP_URL}/api/auth/oauth2/register`);

  const application = new ClientApplicationState(REDIRECT_URI, CLIENT_METADATA);
  const transport = () => new StreamableHTTPClientTransport(gateway(catalogId), { authProvider: application });
  const first = transport();
  await expect(new Client({ name: "e2e", version: "1" }).connect(first)).rejects.toThrow(/Unauthorized/i);
  expect(application.clientInformation()?.client_id).toBeTruthy();
  const authorizationUrl = application.authorizationUrl!;
  expect(authorizationUrl.searchParams.get("resource")).toBe(`${APP_URL}/api/catalogs/${catalogId}/mcp`);

  // The person's browser, not signed in yet: sign-in first, then the consent page; the code comes back
  // to the client application's address.
  const browserContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const person = await browserContext.newPage();
  await person.goto(authorizationUrl.href);
  await expect(person).toHaveURL(/\/sign-in\?next=/);
  await person.getByTestId("sign-in-email").fill(ADMIN.email);
  await person.getByTestId("sign-in-password").fill(ADMIN.password);
  await person.getByTestId("sign-in-submit").click();
  await expect(person.getByRole("heading", { level: 1 })).toContainText(`Allow ${CLIENT_NAME} to use catalog “OAuth E2E`);
  await expect(person.getByTestId("scope-tools:read")).toBeVisible();
  await expect(person.getByTestId("scope-tools:call")).toBeVisible();
  const callback = person.waitForRequest((sent) => sent.url().startsWith(REDIRECT_URI));
  await person.route(`${REDIRECT_URI}**`, (route) => route.fulfill({ contentType: "text/plain", body: "back at the client application" }));
  await person.getByTestId("oauth-allow").click();
  const code = new URL((await callback).url()).searchParams.get("code");
  expect(code).toBeTruthy();
  await first.finishAuth(code!);

  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(transport());
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toContain("ToolSearch");
  const found = await client.callTool({ name: "notes__notes_search", arguments: { query: "meeting" } });
  expect(found.isError).toBeFalsy();
  await client.close();

  // The token is for that gateway only.
  const token = application.tokens()!.access_token;
  const elsewhere = await initializeWith(anonymous, gateway(otherCatalogId), token);
  expect(elsewhere.status()).toBe(401);

  // Settings lists the client; revoking it refuses its token from the next request on.
  await person.goto(`${APP_URL}/settings`);
  const grant = person.getByTestId("oauth-grant").filter({ hasText: CLIENT_NAME });
  await expect(grant).toContainText("tools:read, tools:call");
  await grant.getByRole("button", { name: "Revoke" }).click();
  await person.getByTestId("confirm-action").click();
  await expect(grant).toHaveCount(0);
  const revoked = await initializeWith(anonymous, gateway(catalogId), token);
  expect(revoked.status()).toBe(401);
  expect(revoked.headers()["www-authenticate"]).toContain(`resource_metadata="${metadataUrl}"`);
  await anonymous.dispose();
  // A request that cannot go back to its client ends on Toolshed's error page, in its own words.
  const unknownClient = new URL(authorizationUrl);
  unknownClient.searchParams.set("client_id", "no-such-client");
  await person.goto(unknownClient.href);
  await expect(person.getByTestId("oauth-error")).toContainText("not registered with this Toolshed");
  await expect(person.getByTestId("oauth-error-code")).toHaveText("invalid_client");

  expect((await request.delete(`/api/catalogs/${catalogId}/mcp-servers/notes`)).ok()).toBe(true);
  for (const pid of processesMentioning(marker)) process.kill(pid);
  await browserContext.close();
});
