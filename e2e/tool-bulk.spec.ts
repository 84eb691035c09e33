import type { APIRequestContext } from "@playwright/test";
import { AppShell } from "./pages/app-shell";
import { ToolsPage } from "./pages/tools-page";
import { expect, test } from "./support/fixtures";

/** More tools than the table's first page (100): "select all matching" must reach rows never loaded. */
const MANY = 150;
const name = (i: number) => `bk_${String(i).padStart(3, "0")}`;

async function catalogWithTools(request: APIRequestContext, label: string, count = MANY): Promise<string> {
  const created = await request.post("/api/catalogs", { data: { name: `${label} ${Date.now().toString(36)}` } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).catalog.id as string;
  const tools = Array.from({ length: count }, (_, i) => ({
    name: name(i),
    summary: `Bulk tool number ${i}.`,
    description: `Bulk tool number ${i}, for the bulk spec.`,
    inputSchema: { type: "object" },
    tags: i % 2 ? ["odd"] : [],
  }));
  const imported = await request.post(`/api/catalogs/${id}/import`, { data: { format: "toolshed.catalog", version: 1, tools } });
  expect(imported.status()).toBe(200);
  return id;
}

async function matching(request: APIRequestContext, catalog: string, query: string): Promise<{ total: number; tools: { name: string; tags: string[] }[] }> {
  const response = await request.get(`/api/catalogs/${catalog}/tools?${query}&limit=500`);
  expect(response.ok()).toBe(true);
  return response.json();
}

async function revisionOf(request: APIRequestContext, catalog: string): Promise<number> {
  return (await (await request.get(`/api/catalogs/${catalog}`)).json()).catalog.revision;
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`Acting on many tools at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("shift-click selects a range, select all matching takes rows never loaded; Disable is one revision, and Undo takes it back", async ({
      page,
      request,
    }) => {
      const catalog = await catalogWithTools(request, "Bulk select");
      const tools = new ToolsPage(page, catalog);
      await tools.goto("?q=bk_");
      await expect(tools.count()).toContainText(`Showing ${MANY}`);
      await tools.select(name(0));
      await tools.select(name(4), true);
      await expect(tools.selectedCount()).toHaveText("5 selected");
      for (const i of [1, 2, 3]) await expect(tools.selectBox(name(i))).toBeChecked();
      await expect(tools.selectBox(name(5))).not.toBeChecked();
      await tools.selectAllMatching();
      await expect(tools.selectedCount()).toHaveText(`All ${MANY} tools matching selected`);
      const before = await revisionOf(request, catalog);
      await tools.bulk("disable");
      await expect(tools.toast(`Disabled ${MANY} tools`)).toBeVisible();
      expect((await matching(request, catalog, "q=bk_&state=disabled")).total).toBe(MANY);
      expect(await revisionOf(request, catalog)).toBe(before + 1);
      await expect(tools.bulkBar()).toBeHidden();
      await tools.toast(`Disabled ${MANY} tools`).getByRole("button", { name: "Undo" }).click();
      await expect(tools.toast(`Undid the bulk disable of ${MANY} tools`)).toBeVisible();
      await expect(tools.toast(`Undid the bulk disable of ${MANY} tools`).getByRole("button", { name: "Undo" })).toHaveCount(0);
      expect((await matching(request, catalog, "q=bk_&state=enabled")).total).toBe(MANY);
    });

    test("Tags adds and removes tags; Delete asks first, naming the count; the page passes axe with a selection and the dialog open", async ({
      page,
      request,
    }) => {
      const catalog = await catalogWithTools(request, "Bulk tag", 12);
      const tools = new ToolsPage(page, catalog);
      const shell = new AppShell(page);
      await tools.goto("?q=bk_");
      await tools.select(name(1));
      await tools.select(name(3), true);
      await expect(tools.selectedCount()).toHaveText("3 selected");
      expect(await shell.seriousViolations()).toEqual([]);
      await tools.openBulkDialog("tags");
      await page.getByTestId("bulk-add-tags").fill("reviewed");
      await page.getByTestId("bulk-remove-tags").fill("odd");
      await tools.confirmBulkDialog("tags");
      await expect(tools.toast("Retagged 3 tools")).toBeVisible();
      const tagged = (await matching(request, catalog, "tag=reviewed")).tools;
      expect(tagged.map((tool) => [tool.name, tool.tags])).toEqual([name(1), name(2), name(3)].map((tool) => [tool, ["reviewed"]]));
      await expect(tools.row(name(2))).toContainText("reviewed");

      await tools.select(name(10));
      await tools.select(name(11), true);
      await tools.openBulkDialog("delete");
      await expect(tools.bulkDialog("delete")).toContainText("Delete 2 tools?");
      expect(await shell.seriousViolations()).toEqual([]);
      await tools.confirmBulkDialog("delete");
      await expect(tools.toast("Deleted 2 tools")).toBeVisible();
      await expect(tools.row(name(11))).toBeHidden();
      expect((await matching(request, catalog, "q=bk_")).total).toBe(10);
    });

    test("Move or copy sends the selection to another catalog: a copy stays here, a move leaves", async ({ page, request }) => {
      const catalog = await catalogWithTools(request, "Bulk from", 6);
      const target = await catalogWithTools(request, "Bulk to", 0);
      const tools = new ToolsPage(page, catalog);
      await tools.goto("?q=bk_");
      await tools.select(name(0));
      await tools.select(name(1), true);
      await tools.openBulkDialog("move");
      await page.getByTestId("bulk-target").selectOption(target);
      await tools.confirmBulkDialog("move");
      await expect(tools.toast(`Copied 2 tools to catalog "${target}"`)).toBeVisible();
      expect((await matching(request, target, "q=bk_")).total).toBe(2);
      await expect(tools.row(name(0))).toBeVisible();

      await tools.select(name(4));
      await tools.openBulkDialog("move");
      await page.getByTestId("bulk-target").selectOption(target);
      await page.getByTestId("bulk-mode-move").check();
      await expect(tools.bulkDialog("move")).toContainText("Move 1 tool to another catalog");
      await tools.confirmBulkDialog("move");
      await expect(tools.toast(`Moved 1 tool to catalog "${target}"`)).toBeVisible();
      await expect(tools.row(name(4))).toBeHidden();
      expect((await matching(request, target, "q=bk_")).total).toBe(3);
    });

    test("sorts by a column either way, the order kept in the URL across a reload", async ({ page, request }) => {
      const catalog = await catalogWithTools(request, "Bulk sort", 5);
      const tools = new ToolsPage(page, catalog);
      await tools.goto();
      await tools.sortBy("name", "name");
      await expect(page).toHaveURL(/sort=name/);
      await expect.poll(() => tools.renderedNames().then((names) => names[0])).toBe("apply_patch");
      await tools.sortBy("name", "-name");
      await expect(page).toHaveURL(/sort=-name/);
      await expect.poll(() => tools.renderedNames().then((names) => names[0])).toBe("write");
      await page.reload();
      await expect(tools.count()).toBeVisible();
      await expect.poll(() => tools.renderedNames().then((names) => names.slice(0, 1))).toEqual(["write"]);
      const names = await tools.renderedNames();
      expect(names).toEqual([...names].sort().reverse());
    });
  });
}
