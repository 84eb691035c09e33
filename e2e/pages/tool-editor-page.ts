import type { Page } from "@playwright/test";

export class ToolEditorPage {
  constructor(private readonly page: Page) {}

  async fill(fields: { name?: string; summary?: string; description?: string; schema?: string; tags?: string }) {
    if (fields.name !== undefined) await this.page.getByLabel(/^Name/).fill(fields.name);
    if (fields.summary !== undefined) await this.page.getByLabel(/^Summary/).fill(fields.summary);
    if (fields.description !== undefined) await this.page.getByLabel(/^Description/).fill(fields.description);
    if (fields.schema !== undefined) await this.page.getByTestId("schema-editor").fill(fields.schema);
    if (fields.tags !== undefined) await this.page.getByLabel(/^Tags/).fill(fields.tags);
  }

  schemaErrors() {
    return this.page.getByTestId("error-tool-schema");
  }

  async save() {
    await this.page.getByTestId("save-tool").click();
  }
}
