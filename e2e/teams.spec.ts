import http from "node:http";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { APP_URL, OWN_APP_PORT } from "./support/servers";
import { startOwnApp, type OwnApp } from "./support/own-app";

// This spec signs people in itself: it starts without the admin's stored session.
test.use({ storageState: { cookies: [], origins: [] } });

let app: OwnApp;

test.beforeAll(async () => {
  app = await startOwnApp(OWN_APP_PORT);
});

test.afterAll(() => app?.stop());

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.url });
  return context.newPage();
}

async function invite(page: Page, email: string, role: "viewer" | "editor", previousLink?: string): Promise<string> {
  await page.getByTestId("invite-email").fill(email);
  await page.getByTestId("invite-role").selectOption(role);
  await page.getByTestId("invite-submit").click();
  const link = page.getByTestId("invitation-link");
  await expect(link).toHaveValue(new RegExp(`^${app.url}/invite/`));
  // The field shows the previous invitation's link until this one's answer arrives.
  if (previousLink !== undefined) await expect(link).not.toHaveValue(previousLink);
  const value = await link.inputValue();
  await expect(page.getByTestId(`invitation-row-${email}`)).toBeVisible();
  return value;
}

async function acceptAsNewAccount(page: Page, link: string, name: string) {
  await page.goto(link);
  await page.getByTestId("invite-name").fill(name);
  await page.getByTestId("invite-password").fill(`${name} password 123`);
  await page.getByTestId("invite-password-confirm").fill(`${name} password 123`);
  await page.getByTestId("invite-accept").click();
  await expect(page.getByTestId("signed-in-as")).toContainText(`${name}@example.com`);
}

test("first start: the setup link makes the admin, who invites an editor and a viewer and gives an agent a token; the viewer cannot edit; sign-out", async ({
  browser,
}) => {
  // The server printed a one-time setup link to its log.
  const [setupLink] = await app.waitForLog(/http:\/\/127\.0\.0\.1:\d+\/setup\?token=[\w-]+/);
  const admin = await newPage(browser);
  await admin.goto("/catalogs/demo/tools");
  await expect(admin).toHaveURL(/\/sign-in\?next=%2Fcatalogs%2Fdemo%2Ftools/);
  await admin.goto(setupLink);
  await admin.getByTestId("setup-name").fill("Ada Admin");
  await admin.getByTestId("setup-email").fill("ada@example.com");
  await admin.getByTestId("setup-password").fill("ada's long password");
  await admin.getByTestId("setup-confirm").fill("ada's long password");
  await admin.getByTestId("setup-submit").click();
  await expect(admin.getByTestId("signed-in-as")).toHaveText("ada@example.com");
  await expect(admin.getByTestId("catalog-demo")).toBeVisible();
  // The link works once.
  const again = await newPage(browser);
  await again.goto(setupLink);
  await expect(again.getByTestId("setup-closed")).toContainText("Setup is done");

  // Invitations and a token, from the team page.
  await admin.goto("/teams/default");
  const editorLink = await invite(admin, "eve@example.com", "editor");
  const viewerLink = await invite(admin, "vic@example.com", "viewer", editorLink);
  await admin.getByTestId("token-name").fill("ci-agent");
  await admin.getByTestId("token-scope").selectOption("read");
  await admin.getByTestId("token-submit").click();
  const secret = await admin.getByTestId("new-token-secret").inputValue();
  expect(secret).toMatch(/^tsk_/);
  await expect(admin.getByTestId("token-last-used-ci-agent")).toContainText(/never/i);

  // An agent calls with the token: reads work, writes are refused by scope.
  const toolList = await fetch(`${app.url}/api/catalogs/demo/tool-list`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-5", agent: "build" }),
  });
  expect(toolList.status).toBe(200);
  expect((await toolList.json()).tools.length).toBeGreaterThan(10);
  const write = await fetch(`${app.url}/api/catalogs/demo/tools/read`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ enabled: false }),
  });
  expect(write.status).toBe(403);
  await admin.reload();
  await expect(admin.getByTestId("token-last-used-ci-agent")).not.toContainText(/never/i);

  // The editor joins and can edit.
  const editor = await newPage(browser);
  await acceptAsNewAccount(editor, editorLink, "eve");
  await editor.goto("/catalogs/demo/tools");
  await expect(editor.getByTestId("catalog-role")).toContainText("editor");
  await expect(editor.getByTestId("new-tool")).toBeVisible();

  // The viewer joins: no edit controls, and the API refuses their writes.
  const viewer = await newPage(browser);
  await acceptAsNewAccount(viewer, viewerLink, "vic");
  await viewer.goto("/catalogs/demo/tools");
  await expect(viewer.getByTestId("catalog-role")).toContainText("viewer");
  await expect(viewer.getByTestId("tool-row-read")).toBeVisible();
  await expect(viewer.getByTestId("new-tool")).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Import" })).toHaveCount(0);
  await expect(viewer.getByTestId("toggle-read")).toBeDisabled();
  await viewer.goto("/catalogs/demo/rules");
  await expect(viewer.getByTestId("read-only-note")).toBeVisible();
  await expect(viewer.getByTestId("save-model-rules")).toBeHidden();
  await viewer.goto("/catalogs/demo/agents");
  await expect(viewer.getByTestId("edit-agent-build")).toHaveCount(0);
  const refused = await viewer.evaluate(async () => {
    const response = await fetch("/api/catalogs/demo/tools/read", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ enabled: false }),
    });
    return { status: response.status, body: await response.json() };
  });
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe("forbidden");
  await viewer.goto("/catalogs/demo/tools/new");
  await expect(viewer.getByText(/not found|could not be found/i).first()).toBeVisible();
  await viewer.goto("/teams/default");
  await expect(viewer.getByTestId(`member-row-ada@example.com`)).toBeVisible();
  await expect(viewer.getByTestId("invite-form")).toHaveCount(0);
  await expect(viewer.getByTestId("token-form")).toHaveCount(0);

  // Sign-out ends the session: the pages ask to sign in again.
  await viewer.getByTestId("sign-out").click();
  await expect(viewer).toHaveURL(/\/sign-in/);
  await viewer.goto("/catalogs/demo/tools");
  await expect(viewer).toHaveURL(/\/sign-in\?next=/);
});

test("a request naming a host that is not configured gets nothing", async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const url = new URL(`${APP_URL}/api/catalogs`);
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: "evil.example" } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
    request.end();
  });
  expect(status).toBe(421);
});
