import { expect, test } from "./support/fixtures";
import { CatalogsPage } from "./pages/catalogs-page";
import { ToolEditorPage } from "./pages/tool-editor-page";
import { ToolsPage } from "./pages/tools-page";

const BUILTINS = [
  "read",
  "write",
  "edit",
  "grep",
  "glob",
  "bash",
  "task",
  "todowrite",
  "todoread",
  "webfetch",
  "websearch",
  "skill",
  "apply_patch",
  "plan",
  "lsp",
];

test("the demo catalog lists every built-in tool", async ({ page }) => {
  const tools = new ToolsPage(page, "demo");
  await tools.goto();
  await tools.filterBySource("builtin");
  await expect(page).toHaveURL(/source=builtin/);
  await expect(tools.rows()).toHaveCount(BUILTINS.length);
  for (const name of BUILTINS) await expect(tools.row(name)).toBeVisible();
});

test("create a catalog, add a tool with an invalid schema, fix it, find it, disable it and see the audit entry", async ({ page }) => {
  const catalogs = new CatalogsPage(page);
  await catalogs.goto();
  await catalogs.create("E2E Team", "Agents under test");
  await expect(page).toHaveURL(/\/catalogs\/e2e-team\/tools$/);
  await expect(page.getByTestId("catalog-title")).toHaveText("E2E Team");

  await page.getByTestId("new-tool").click();
  const editor = new ToolEditorPage(page);
  await editor.fill({
    name: "invoice_lookup",
    summary: "Find an invoice by number and return its status and amount.",
    description: "Looks up one invoice in the billing system.",
    schema: '{"type": "array", "items": {"type": "string"}}',
    tags: "billing",
  });
  await expect(editor.schemaErrors()).toContainText('must have type "object"');
  await editor.fill({ schema: '{"type": "object", "properties": {"number": {"type": "strnig"}}}' });
  await expect(editor.schemaErrors()).toContainText("Not a valid JSON Schema");
  await editor.save();
  await expect(page).toHaveURL(/\/tools\/new$/);

  await editor.fill({ schema: '{"type": "object", "properties": {"number": {"type": "string"}}, "required": ["number"]}' });
  await expect(editor.schemaErrors()).toHaveCount(0);
  await editor.save();
  await expect(page).toHaveURL(/\/tools\/invoice_lookup$/);
  await expect(page.getByText("Created invoice_lookup")).toBeVisible();

  const tools = new ToolsPage(page, "e2e-team");
  await tools.goto();
  await tools.search("invoice status");
  await expect(page).toHaveURL(/q=invoice/);
  await expect(tools.rows()).toHaveCount(1);
  await expect(tools.row("invoice_lookup")).toBeVisible();

  await tools.toggle("invoice_lookup");
  await expect(page.getByText("invoice_lookup disabled")).toBeVisible();
  await tools.goto("?state=disabled");
  await expect(tools.row("invoice_lookup")).toBeVisible();

  await tools.row("invoice_lookup").getByRole("link", { name: "invoice_lookup" }).click();
  await expect(page.getByTestId("tool-state")).toHaveText("disabled");
  const history = page.getByTestId("audit-entry");
  await expect(history.first().getByTestId("audit-action")).toHaveText("disable");
  await expect(history.nth(1).getByTestId("audit-action")).toHaveText("create");
});

test("a duplicate name is refused at its field and a catalog is deleted only after confirmation", async ({ page }) => {
  const catalogs = new CatalogsPage(page);
  await catalogs.goto();
  await catalogs.create("Scratch");
  // The catalog's page first: a click while the creation's navigation is still under way is undone by it.
  await expect(page).toHaveURL(/\/catalogs\/scratch\/tools$/);
  await expect(page.getByTestId("catalog-title")).toHaveText("Scratch");
  await page.getByTestId("new-tool").click();
  await expect(page).toHaveURL(/\/catalogs\/scratch\/tools\/new$/);
  const editor = new ToolEditorPage(page);
  await editor.fill({ name: "grep", summary: "Clashes with a built-in.", description: "" });
  await editor.save();
  await expect(page.getByTestId("error-tool-name")).toContainText("already exists");

  await catalogs.goto();
  await page.getByTestId("delete-catalog-scratch").click();
  await page.locator("dialog[open]").getByRole("button", { name: "Cancel" }).click();
  await expect(catalogs.card("scratch")).toBeVisible();
  await catalogs.delete("scratch");
});
