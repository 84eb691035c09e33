import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test as setup } from "@playwright/test";
import { ADMIN, APP_URL, APP_WITH_MODEL_URL, AUTH_STATE_FILE, TOKENS_FILE } from "./support/servers";

/**
 * Signs the operator's admin in to both apps through the sign-in page (the state every other spec
 * starts from), and creates an admin API token in each for the specs' direct API calls.
 */
setup("sign in the admin and create API tokens", async ({ page }) => {
  const tokens: Record<string, string> = {};
  for (const url of [APP_URL, APP_WITH_MODEL_URL]) {
    await page.goto(`${url}/catalogs/demo/tools`);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByTestId("sign-in-email").fill(ADMIN.email);
    await page.getByTestId("sign-in-password").fill(ADMIN.password);
    await page.getByTestId("sign-in-submit").click();
    await expect(page.getByTestId("catalog-title")).toHaveText("Demo");
    const created = await page.request.post(`${url}/api/teams/default/tokens`, {
      data: { name: `e2e-${Date.now()}`, scope: "admin" },
      headers: { origin: url },
    });
    expect(created.status()).toBe(201);
    tokens[url] = (await created.json()).secret;
  }
  mkdirSync(path.dirname(AUTH_STATE_FILE), { recursive: true });
  await page.context().storageState({ path: AUTH_STATE_FILE });
  writeFileSync(TOKENS_FILE, JSON.stringify(tokens));
});
