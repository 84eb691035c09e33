import { expect, type Page } from "@playwright/test";

export class CatalogsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/");
  }

  async create(name: string, description = "") {
    const form = this.page.getByTestId("create-catalog");
    await form.getByLabel("New catalog").fill(name);
    await form.getByLabel("Description").fill(description);
    await form.getByRole("button", { name: "Create catalog" }).click();
  }

  card(id: string) {
    return this.page.getByTestId(`catalog-${id}`);
  }

  async delete(id: string) {
    await this.page.getByTestId(`delete-catalog-${id}`).click();
    await this.page.locator("dialog[open]").getByTestId("confirm-action").click();
    await expect(this.card(id)).toHaveCount(0);
  }
}
