import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { ConnectionsPage } from "./pages/connections-page";
import { SourcesPage } from "./pages/sources-page";

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
