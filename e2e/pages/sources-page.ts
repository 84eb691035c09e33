import { expect, type Page } from "@playwright/test";

export interface StdioServerInput {
  name: string;
  command: string;
  /** One argument per line in the form. */
  args?: string[];
  /** Arguments stored encrypted and shown as ********, after the others. */
  secretArgs?: string[];
  /** KEY=value lines in the form. */
  env?: Record<string, string>;
}

export interface HttpServerInput {
  name: string;
  url: string;
  /** Name: value lines in the form. */
  headers?: Record<string, string>;
}

export class SourcesPage {
  constructor(
    private readonly page: Page,
    private readonly catalogId: string,
  ) {}

  async goto() {
    await this.page.goto(`/catalogs/${this.catalogId}/sources`);
    await expect(this.page.getByTestId("mcp-servers")).toBeVisible();
  }

  form() {
    return this.page.getByTestId("mcp-form");
  }

  async fillStdio(input: StdioServerInput) {
    const form = this.form();
    await form.getByTestId("mcp-name").fill(input.name);
    await form.getByTestId("mcp-transport").selectOption("stdio");
    await form.getByTestId("mcp-command").fill(input.command);
    await form.getByTestId("mcp-args").fill((input.args ?? []).join("\n"));
    await form.getByTestId("mcp-secret-args").fill((input.secretArgs ?? []).join("\n"));
    await form.getByTestId("mcp-env").fill(
      Object.entries(input.env ?? {})
        .map(([key, value]) => `${key}=${value}`)
        .join("\n"),
    );
  }

  async fillHttp(input: HttpServerInput) {
    const form = this.form();
    await form.getByTestId("mcp-name").fill(input.name);
    await form.getByTestId("mcp-transport").selectOption("http");
    await form.getByTestId("mcp-url").fill(input.url);
    await form.getByTestId("mcp-headers").fill(
      Object.entries(input.headers ?? {})
        .map(([key, value]) => `${key}: ${value}`)
        .join("\n"),
    );
  }

  /** What the server's listings do with tools whose text has medium poisoning findings. */
  async chooseMediumFindings(choice: "review" | "auto") {
    await this.form().getByTestId("mcp-medium-findings").selectOption(choice);
  }

  /** Each person's own secret, in this header (HTTP) or environment variable (stdio), instead of a shared credential. */
  async choosePerPersonSecret(target: string) {
    await this.form().getByTestId("mcp-credential-mode").selectOption("per-user-secret");
    await this.form().getByTestId("mcp-credential-target").fill(target);
  }

  async choosePerPersonOAuth() {
    await this.form().getByTestId("mcp-credential-mode").selectOption("per-user-oauth");
  }

  async submit() {
    await this.form().getByTestId("mcp-add").click();
  }

  server(name: string) {
    return this.page.getByTestId(`mcp-server-${name}`);
  }

  status(name: string) {
    return this.page.getByTestId(`mcp-status-${name}`);
  }

  toolCount(name: string) {
    return this.page.getByTestId(`mcp-tools-${name}`);
  }

  /** The server's resources and prompts, opened. */
  async openOffer(name: string) {
    const offer = this.page.getByTestId(`mcp-offer-${name}`);
    await offer.locator("summary").click();
    return offer;
  }

  prompt(server: string, prompt: string) {
    return this.page.getByTestId(`mcp-prompts-${server}`).getByTestId("mcp-prompt").filter({ hasText: prompt });
  }

  error(name: string) {
    return this.page.getByTestId(`mcp-error-${name}`);
  }

  /** Reloads the page until the server shows this status: health changes in the background. */
  async waitForStatus(name: string, status: "connected" | "error" | "never") {
    await expect(async () => {
      await this.page.reload();
      await expect(this.status(name)).toHaveText(status, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
  }

  async sync(name: string) {
    await this.page.getByTestId(`mcp-sync-${name}`).click();
  }

  async delete(name: string) {
    await this.page.getByTestId(`mcp-delete-${name}`).click();
    await this.page.locator("dialog[open]").getByTestId("confirm-action").click();
  }

  fieldErrors(field: "name" | "command" | "args" | "env" | "url" | "headers" | "other") {
    return this.form().getByTestId(`mcp-errors-${field}`);
  }
}
