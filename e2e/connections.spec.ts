import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serveOAuthMcp } from "../tests/support/oauth-mcp-server";
import { ConnectionsPage } from "./pages/connections-page";
import { SourcesPage } from "./pages/sources-page";
import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { startOwnApp } from "./support/own-app";
import { ADMIN, LOOPBACK_MCP_APP_PORT } from "./support/servers";

const SERVER = "mine";

test("a server marked per person on the Sources page: each person enters their own secret on Connections, never shown again, and disconnects", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const catalogId = await createCatalog(request, "Connections E2E");
  const secret = `e2e-secret-${Date.now()}`;
  const sources = new SourcesPage(page, catalogId);
  await sources.goto();
  await sources.fillStdio({ name: SERVER, command: "node", args: ["mcp-servers/demo-server.mjs"] });
  await sources.choosePerPersonSecret("DEMO_MCP_TOKEN");
  await sources.submit();
  // Nobody has connected yet: its tools wait for the first person who does.
  await expect(sources.error(SERVER)).toContainText("nobody has yet");
  await expect(page.getByTestId(`mcp-credentials-${SERVER}`)).toContainText("their own secret");

  const connections = new ConnectionsPage(page);
  await connections.goto();
  await expect(connections.state(catalogId, SERVER)).toHaveText("not connected");
  await connections.saveSecret(catalogId, SERVER, secret);
  await expect(page.getByText(`Connected to ${SERVER}`)).toBeVisible();
  await expect(connections.state(catalogId, SERVER)).toContainText("connected since");
  await page.reload();
  await expect(page.locator("main")).not.toContainText(secret);
  await sources.goto();
  await expect(page.getByTestId("sources-page")).not.toContainText(secret);

  await connections.goto();
  await connections.disconnect(catalogId, SERVER);
  await expect(connections.state(catalogId, SERVER)).toHaveText("not connected");
});

test("a server marked per-person OAuth: the person signs in at its own authorization server from Connections, and the gateway calls it with their token", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The upstream (an MCP server that requires OAuth, built with the SDK's server-side auth helpers) runs here, on loopback.
  const upstream = await serveOAuthMcp();
  const app = await startOwnApp(LOOPBACK_MCP_APP_PORT, {
    TOOLSHED_MCP_ALLOW_PRIVATE: "1",
    TOOLSHED_ADMIN_EMAIL: ADMIN.email,
    TOOLSHED_ADMIN_PASSWORD: ADMIN.password,
  });
  const context = await browser.newContext({ baseURL: app.url, storageState: { cookies: [], origins: [] } });
  try {
    const page = await context.newPage();
    await page.goto("/catalogs/demo/tools");
    await page.getByTestId("sign-in-email").fill(ADMIN.email);
    await page.getByTestId("sign-in-password").fill(ADMIN.password);
    await page.getByTestId("sign-in-submit").click();
    await expect(page.getByTestId("catalog-title")).toHaveText("Demo");
    const created = await page.request.post("/api/catalogs", { data: { name: "Per-person OAuth" }, headers: { origin: app.url } });
    expect(created.status()).toBe(201);
    const catalogId: string = (await created.json()).catalog.id;

    const sources = new SourcesPage(page, catalogId);
    await sources.goto();
    await sources.fillHttp({ name: "gh", url: upstream.url });
    await sources.choosePerPersonOAuth();
    await sources.submit();
    await expect(page.getByTestId("mcp-credentials-gh")).toContainText("OAuth sign-in");

    // Connect: to the server's authorization server (found from its metadata; Toolshed registers itself), which approves, and back.
    const connections = new ConnectionsPage(page);
    await connections.goto();
    await expect(connections.state(catalogId, "gh")).toHaveText("not connected");
    await connections.connect(catalogId, "gh");
    await expect(page).toHaveURL(/\/connections\?.*connected=1/);
    await expect(connections.state(catalogId, "gh")).toContainText("connected since");
    const [issued] = upstream.provider.tokens.keys();
    await expect(page.locator("main")).not.toContainText(issued);

    // The person's MCP client (signed in by their session here) calls the tool: the upstream sees their own token, not Toolshed's.
    const cookie = (await context.cookies(app.url)).map((entry) => `${entry.name}=${entry.value}`).join("; ");
    const client = new Client({ name: "e2e-person", version: "1.0.0" });
    const gateway = new URL(`/api/catalogs/${catalogId}/mcp?model=gpt-5&agent=build`, app.url);
    await client.connect(new StreamableHTTPClientTransport(gateway, { requestInit: { headers: { cookie, origin: app.url } } }));
    const result = await client.callTool({ name: "gh__whoami", arguments: {} });
    expect(result.isError ?? false).toBe(false);
    expect(upstream.callHeaders).toEqual([`Bearer ${issued}`]);
    await client.close();
  } finally {
    await context.close();
    app.stop();
    await upstream.close();
  }
});
