import { type APIRequestContext, expect } from "@playwright/test";

/** A fresh catalog of the admin's team, named `name` and a stamp (the e2e apps' database outlives a spec); returns its id. */
export async function createCatalog(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.post("/api/catalogs", { data: { name: `${name} ${Date.now().toString(36)}` } });
  expect(response.status()).toBe(201);
  return (await response.json()).catalog.id;
}
