import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";

test("a catalog's file applied to another on the Code page: its plan first, then the apply, then nothing left to change", async ({ page, request }) => {
  const staging = await createCatalog(request, "Staging");
  const tool = {
    name: "lookup_order",
    summary: "Find an order by its number.",
    description: "Looks an order up by its number.",
    inputSchema: { type: "object" },
  };
  expect((await request.post(`/api/catalogs/${staging}/tools`, { data: tool })).status()).toBe(201);
  const exported = await request.get(`/api/catalogs/${staging}/export?format=yaml`);
  expect(exported.status()).toBe(200);
  const file = { name: "staging.catalog.yaml", mimeType: "application/yaml", buffer: Buffer.from(await exported.text()) };

  const production = await createCatalog(request, "Production");
  await page.goto(`/catalogs/${production}/code`);
  await page.getByTestId("apply-file").setInputFiles(file);
  await expect(page.getByTestId("apply-created")).toContainText("tools/lookup_order");
  expect((await request.get(`/api/catalogs/${production}/tools/lookup_order`)).status()).toBe(404);

  await page.getByTestId("apply-confirm").click();
  await expect(page.getByTestId("apply-result")).toContainText("Applied: create");
  expect((await request.get(`/api/catalogs/${production}/tools/lookup_order`)).status()).toBe(200);

  await page.getByTestId("apply-file").setInputFiles(file);
  await expect(page.getByTestId("apply-plan-empty")).toBeVisible();
  await expect(page.getByTestId("apply-confirm")).toBeDisabled();
});
