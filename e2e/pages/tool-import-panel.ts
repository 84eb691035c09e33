import { expect, type Page } from "@playwright/test";

/** The Tools page's import: choosing a file, its preview (tools or MCP servers), the go-ahead, and what it did. */
export class ToolImportPanel {
  constructor(private readonly page: Page) {}

  /** Chooses a file of this content, as a person picking it from disk does. */
  async choose(name: string, content: unknown) {
    const text = typeof content === "string" ? content : JSON.stringify(content);
    await this.page.getByTestId("import-file").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
  }

  panel() {
    return this.page.getByTestId("import-panel");
  }

  counts() {
    return this.page.getByTestId("import-preview-counts");
  }

  /** "Read as …": the format the file was detected as. */
  format() {
    return this.page.getByTestId("import-format");
  }

  notes() {
    return this.page.getByTestId("import-notes");
  }

  error() {
    return this.page.getByTestId("import-error");
  }

  invalid() {
    return this.page.getByTestId("import-invalid");
  }

  servers() {
    return this.page.getByTestId("import-servers");
  }

  server(key: string) {
    return this.page.getByTestId(`import-server-${key}`);
  }

  result() {
    return this.page.getByTestId("import-result");
  }

  async confirm() {
    await this.page.getByTestId("import-confirm").click();
  }

  async close() {
    await this.page.getByTestId("import-close").click();
    await expect(this.panel()).toHaveCount(0);
  }
}
