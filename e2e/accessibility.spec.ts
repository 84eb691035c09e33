import type { Locator, Page } from "@playwright/test";
import { AppShell } from "./pages/app-shell";
import { ToolEditorPage } from "./pages/tool-editor-page";
import { expect, test } from "./support/fixtures";
import { DESKTOP_AND_PHONE } from "./support/viewports";

const PHONE = DESKTOP_AND_PHONE[1];

/** Every page, with what shows that its data is loaded and the title it should have. */
const PAGES: { path: string; ready: (page: Page) => Locator; title: string }[] = [
  { path: "/", ready: (page) => page.getByTestId("catalog-list"), title: "Catalogs · Toolshed" },
  { path: "/settings", ready: (page) => page.getByTestId("default-selector"), title: "Settings · Toolshed" },
  { path: "/teams", ready: (page) => page.getByTestId("team-list"), title: "Teams · Toolshed" },
  { path: "/connections", ready: (page) => page.getByRole("heading", { name: "Connections" }), title: "Connections · Toolshed" },
  { path: "/teams/default", ready: (page) => page.getByTestId("team-title"), title: "Team Default · Toolshed" },
  { path: "/api-reference", ready: (page) => page.getByRole("heading", { name: "Operations" }), title: "API reference · Toolshed" },
  { path: "/catalogs/demo/tools", ready: (page) => page.getByTestId("tool-row-read"), title: "Tools · Demo · Toolshed" },
  { path: "/catalogs/demo/tools/bash", ready: (page) => page.getByTestId("tool-name"), title: "Tool bash · Demo · Toolshed" },
  { path: "/catalogs/demo/tools/new", ready: (page) => page.getByTestId("tool-editor"), title: "New tool · Demo · Toolshed" },
  { path: "/catalogs/demo/rules", ready: (page) => page.getByTestId("model-rule-0"), title: "Rules · Demo · Toolshed" },
  { path: "/catalogs/demo/agents", ready: (page) => page.getByTestId("agent-build"), title: "Agents · Demo · Toolshed" },
  { path: "/catalogs/demo/sources", ready: (page) => page.getByTestId("mcp-servers"), title: "Sources · Demo · Toolshed" },
  { path: "/catalogs/demo/simulator?model=gpt-5&agent=build", ready: (page) => page.getByTestId("final-count"), title: "Simulator · Demo · Toolshed" },
  { path: "/catalogs/demo/playground", ready: (page) => page.getByTestId("model-status"), title: "Playground · Demo · Toolshed" },
  { path: "/catalogs/demo/decisions", ready: (page) => page.getByTestId("decision-table"), title: "Decisions · Demo · Toolshed" },
  { path: "/catalogs/demo/evaluate", ready: (page) => page.getByTestId("run-evaluation"), title: "Evaluate · Demo · Toolshed" },
  { path: "/catalogs/demo/code", ready: (page) => page.getByTestId("export-yaml"), title: "Code · Demo · Toolshed" },
  { path: "/catalogs/demo/usage", ready: (page) => page.getByTestId("usage-tools"), title: "Usage · Demo · Toolshed" },
  { path: "/no-such-page", ready: (page) => page.getByText("This page does not exist"), title: "Not found · Toolshed" },
  { path: "/catalogs/no-such-catalog/tools", ready: (page) => page.getByText("Catalog not found"), title: "Not found · Toolshed" },
];

test.describe("with data loaded", () => {
  // The decisions list, a decision's page and the Usage page's tool table need one decision.
  test.beforeEach(async ({ request }) => {
    const search = await request.post("/api/catalogs/demo/tool-search", { data: { model: "gpt-5", agent: "build", query: "select:bash" } });
    expect(search.ok()).toBe(true);
  });

  for (const { path, ready, title } of PAGES) {
    test(`${path}: no serious WCAG 2.1 AA violation, its own title, no empty column header`, async ({ page }) => {
      // Every route of the API on one page: axe takes its time over it on a busy machine.
      test.slow(path === "/api-reference");
      const shell = new AppShell(page);
      await shell.open(path, ready);
      await expect(page).toHaveTitle(title);
      expect(await shell.seriousViolations()).toEqual([]);
      expect(await shell.emptyTableHeaders()).toEqual([]);
    });
  }

  // The phone's layout is another page for axe: tables scroll in their own region, the menu folds.
  test.describe(`on a phone (${PHONE.width} px)`, () => {
    test.use({ viewport: PHONE });
    for (const { path, ready } of PAGES) {
      test(`${path}: no serious WCAG 2.1 AA violation`, async ({ page }) => {
        test.slow(path === "/api-reference");
        const shell = new AppShell(page);
        await shell.open(path, ready);
        expect(await shell.seriousViolations()).toEqual([]);
      });
    }
  });

  test("a decision's page: no serious violation, its own title, and its raw JSON is a named region the keyboard reaches", async ({ page, request }) => {
    const search = await request.post("/api/catalogs/demo/tool-search", { data: { model: "gpt-5", agent: "build", query: "select:read" } });
    const { decisionId } = await search.json();
    const shell = new AppShell(page);
    await shell.open(`/catalogs/demo/decisions/${decisionId}`, (page) => page.getByTestId("decision-raw"));
    await expect(page).toHaveTitle("Decision · Demo · Toolshed");
    expect(await shell.seriousViolations()).toEqual([]);
    const raw = page.getByRole("region", { name: "Raw selector output" });
    await expect(raw).toHaveAttribute("tabindex", "0");
    await raw.focus();
    await expect(raw).toBeFocused();
  });
});

test("the skip link is the first stop of the keyboard and leads past the top bar; focus is visible", async ({ page }) => {
  const shell = new AppShell(page);
  await shell.open("/catalogs/demo/tools", (page) => page.getByTestId("tool-row-read"));
  await page.keyboard.press("Tab");
  await expect(shell.skipLink()).toBeFocused();
  await expect(shell.skipLink()).toBeInViewport();
  await expect(shell.skipLink()).toHaveCSS("outline-style", "solid");
  await page.keyboard.press("Enter");
  await expect(shell.content()).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(shell.content().locator(":focus")).toHaveCount(1);
  await expect(page.getByRole("banner").locator(":focus")).toHaveCount(0);
});

test("a tool's switch says its state under a stable name", async ({ page }) => {
  const shell = new AppShell(page);
  await shell.open("/catalogs/demo/tools", (page) => page.getByTestId("tool-row-read"));
  await expect(page.getByRole("switch", { name: "read enabled", exact: true })).toHaveAttribute("aria-checked", "true");
});

test.describe("with an error shown", () => {
  test("a field's error after a bad submit is tied to the field and announced", async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open("/catalogs/demo/tools/new", (page) => page.getByTestId("tool-editor"));
    const editor = new ToolEditorPage(page);
    await editor.fill({ name: "not a name!", summary: "Says nothing." });
    await editor.save();
    const error = page.getByTestId("error-tool-name").first();
    await expect(error).toBeVisible();
    await expect(error).toHaveAttribute("role", "alert");
    const name = page.getByLabel(/^Name/);
    await expect(name).toHaveAttribute("aria-invalid", "true");
    // What a screen reader says with the field: its error.
    const message = (await error.textContent())?.trim() ?? "";
    expect(message).not.toBe("");
    await expect(name).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    expect(await shell.seriousViolations()).toEqual([]);
  });

  // Each page's main read failing as a crashed server would answer it: a read of the HTTP API with
  // the API's error, status 500; a server action (a POST to the page's own URL) with a plain-text 500.
  const FAILED_READS = [
    { path: "/catalogs/demo/tools", api: "/api/catalogs/demo/tools", error: "load-error" },
    { path: "/catalogs/demo/simulator?model=gpt-5&agent=build", action: "/catalogs/demo/simulator", error: "sim-error" },
    { path: "/catalogs/demo/decisions", api: "/api/catalogs/demo/decisions", error: "load-error" },
  ];
  for (const { path, api, action, error } of FAILED_READS) {
    test(`${path}: a failed request is announced, with no serious violation`, async ({ page }) => {
      const shell = new AppShell(page);
      await page.route(
        (url) => url.pathname === (api ?? action),
        (route) => {
          if (api)
            return route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "internal", message: "Boom." } }) });
          // The page itself still loads; its server actions fail (Next shows a text/plain answer's text as the error).
          if (route.request().method() !== "POST") return route.fallback();
          return route.fulfill({ status: 500, headers: { "content-type": "text/plain" }, body: "Boom." });
        },
      );
      await shell.open(path, (page) => page.getByTestId(error));
      await expect(page.getByTestId(error)).toHaveAttribute("role", "alert");
      await expect(page.getByTestId(error)).toContainText("Boom.");
      expect(await shell.seriousViolations()).toEqual([]);
    });
  }
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("sign-in: no serious violation, its own title, and a wrong password is announced on the field", async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open("/sign-in", (page) => page.getByTestId("sign-in-form"));
    await expect(page).toHaveTitle("Sign in · Toolshed");
    expect(await shell.seriousViolations()).toEqual([]);
    await page.getByTestId("sign-in-email").fill("admin@example.com");
    await page.getByTestId("sign-in-password").fill("not the password");
    await page.getByTestId("sign-in-submit").click();
    await expect(page.getByTestId("sign-in-error")).toHaveAttribute("role", "alert");
    await expect(page.getByTestId("sign-in-password")).toHaveAttribute("aria-invalid", "true");
    expect(await shell.seriousViolations()).toEqual([]);
  });
});
