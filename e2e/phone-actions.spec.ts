import type { Locator, Page } from "@playwright/test";
import { AppShell } from "./pages/app-shell";
import { ToolsPage } from "./pages/tools-page";
import { expect, test } from "./support/fixtures";

/** A control a finger finds: at least 44 × 44 px. */
async function expectTouchTarget(control: Locator) {
  const box = await control.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(44);
  expect(box?.height).toBeGreaterThanOrEqual(44);
}

/** A table's frame: the element that scrolls sideways around it. */
const frameOf = (table: Locator) => table.locator("xpath=..");

/** Pages whose tables end in a column of buttons, with the table and a button of its first row. */
const TABLES: { path: string; table: (page: Page) => Locator; button: (page: Page) => Locator }[] = [
  {
    path: "/teams/default",
    table: (page) => page.getByTestId("member-table"),
    button: (page) => page.getByTestId("member-remove-admin@example.com"),
  },
  {
    path: "/catalogs/demo/rules",
    table: (page) => page.getByTestId("providers-table"),
    button: (page) => page.getByTestId("providers-table").getByRole("button", { name: "Remove" }).first(),
  },
  {
    path: "/catalogs/demo/sources",
    table: (page) => page.getByTestId("mcp-server-table"),
    button: (page) => page.getByTestId("mcp-delete-notes"),
  },
];

test.describe("on a phone", () => {
  // A phone held upright (an iPhone 14's viewport).
  test.use({ viewport: { width: 390, height: 844 } });

  for (const { path, table, button } of TABLES) {
    test(`${path}: the row's buttons in sight without scrolling the table, which says it scrolls`, async ({ page }) => {
      const shell = new AppShell(page);
      await shell.open(path, button);
      const frame = frameOf(table(page));
      // The table is wider than its frame: the rest of it scrolls, and a hint says so.
      expect(await frame.evaluate((node) => node.scrollWidth > node.clientWidth)).toBe(true);
      await expect(page.getByTestId(`${await table(page).getAttribute("data-testid")}-scroll-hint`)).toBeVisible();
      expect(await shell.isInSightUnscrolled(button(page), frame)).toBe(true);
      expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
      expect(await shell.seriousViolations()).toEqual([]);
    });
  }

  test("the Tools page's enable switch: a touch target of at least 44 × 44 px that still flips the tool", async ({ page, request }) => {
    const tools = new ToolsPage(page, "demo");
    await tools.goto();
    const toggle = tools.row("webfetch").getByRole("switch", { name: "webfetch enabled", exact: true });
    await expectTouchTarget(toggle);
    // A tap beside the 34 × 20 px track it draws (left of it, then below it) still flips it.
    await toggle.click({ position: { x: 2, y: 22 } });
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await toggle.click({ position: { x: 22, y: 41 } });
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    expect((await (await request.get("/api/catalogs/demo/tools/webfetch")).json()).tool.enabled).toBe(true);
  });
});

test("on a wide screen the switch is as big a target with the same look, and no table says it scrolls", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const tools = new ToolsPage(page, "demo");
  await tools.goto();
  const toggle = tools.row("read").getByRole("switch", { name: "read enabled", exact: true });
  await expectTouchTarget(toggle);
  // It keeps its look: the 34 × 20 px track it draws.
  expect(await toggle.evaluate((button) => [getComputedStyle(button, "::before").width, getComputedStyle(button, "::before").height])).toEqual([
    "34px",
    "20px",
  ]);
  const shell = new AppShell(page);
  await shell.open("/teams/default", (page) => page.getByTestId("member-remove-admin@example.com"));
  await expect(page.getByTestId("member-table-scroll-hint")).toHaveCount(0);
  expect(await shell.isInSightUnscrolled(page.getByTestId("member-remove-admin@example.com"), frameOf(page.getByTestId("member-table")))).toBe(true);
});
