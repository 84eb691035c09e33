import type { Locator, Page } from "@playwright/test";
import { AppShell } from "./app-shell";

export class ToolEditorPage {
  constructor(private readonly page: Page) {}

  async fill(fields: { name?: string; summary?: string; description?: string; schema?: string; tags?: string }) {
    if (fields.name !== undefined) await this.fillHydrated(this.page.getByLabel(/^Name/), fields.name);
    if (fields.summary !== undefined) await this.fillHydrated(this.page.getByLabel(/^Summary/), fields.summary);
    if (fields.description !== undefined) await this.fillHydrated(this.page.getByLabel(/^Description/), fields.description);
    if (fields.schema !== undefined) await this.fillHydrated(this.page.getByTestId("schema-editor"), fields.schema);
    if (fields.tags !== undefined) await this.fillHydrated(this.page.getByLabel(/^Tags/), fields.tags);
  }

  schemaErrors() {
    return this.page.getByTestId("error-tool-schema");
  }

  async save() {
    await this.page.getByTestId("save-tool").click();
  }

  /** A field filled before React hydrates it can keep the server's text beside the new one. */
  private async fillHydrated(field: Locator, value: string) {
    await new AppShell(this.page).hydrated(field);
    await field.fill(value);
  }
}
