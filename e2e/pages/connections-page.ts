import { expect, type Page } from "@playwright/test";

/** The Connections page: the signed-in person's own accounts at per-person MCP servers. */
export class ConnectionsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/connections");
    await expect(this.page.getByRole("heading", { name: "Connections" })).toBeVisible();
  }

  row(catalogId: string, server: string) {
    return this.page.getByTestId(`mcp-connection-${catalogId}-${server}`);
  }

  state(catalogId: string, server: string) {
    return this.page.getByTestId(`mcp-connection-${catalogId}-${server}-state`);
  }

  async saveSecret(catalogId: string, server: string, secret: string) {
    await this.page.getByTestId(`mcp-connection-${catalogId}-${server}-secret`).fill(secret);
    await this.page.getByTestId(`mcp-connection-${catalogId}-${server}-save`).click();
  }

  /** Starts the person's OAuth sign-in at the server: the browser leaves for its authorization server. */
  async connect(catalogId: string, server: string) {
    await this.page.getByTestId(`mcp-connection-${catalogId}-${server}-connect`).click();
  }

  async disconnect(catalogId: string, server: string) {
    await this.page.getByTestId(`mcp-connection-${catalogId}-${server}-disconnect`).click();
    await this.page.locator("dialog[open]").getByTestId("confirm-action").click();
  }
}
