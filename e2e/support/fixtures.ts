import { readFileSync } from "node:fs";
import { test as base, type APIRequestContext } from "@playwright/test";
import { TOKENS_FILE } from "./servers";

/**
 * The specs' `request` talks to the API as an agent would: with the admin API token of the app
 * under test (the browser itself stays signed in by cookie).
 */
export const test = base.extend<{ request: APIRequestContext }>({
  request: async ({ playwright, baseURL }, use) => {
    const tokens = JSON.parse(readFileSync(TOKENS_FILE, "utf8")) as Record<string, string>;
    const token = tokens[baseURL ?? ""];
    if (!token) throw new Error(`No API token for ${baseURL}: did the setup project run?`);
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    await use(request);
    await request.dispose();
  },
});

export { expect } from "@playwright/test";
