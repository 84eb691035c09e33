import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { ToolEditorPage } from "./pages/tool-editor-page";
import { ToolsPage } from "./pages/tools-page";

const TOOL_COUNT = 10_000;
/** Imports above ~4,000 tools fail until imports run as jobs: send chunks. */
const CHUNK = 2_000;
const SERVICES = ["github", "jira", "slack", "stripe", "notion", "zendesk", "datadog", "figma", "gmail", "salesforce"];
const VERBS = ["create", "get", "list", "update", "delete", "search", "archive", "export"];
const OBJECTS = ["issue", "ticket", "message", "invoice", "page", "customer", "alert", "design", "email", "deal"];
/** The one tool the test looks for, and edits: no other tool's name or summary has "quokka". */
const TARGET = "vault_rotate_quokka_7777";

/** A labelled-set tool ({name, description, parameters}) with a realistic schema; index 7777 is the target. */
function syntheticTool(index: number) {
  if (index === 7777) {
    return {
      name: TARGET,
      description: "Rotate the quokka credentials of a vault. Returns the new key id; the old key stays valid for an hour.",
      parameters: { type: "object", properties: { vault: { type: "string", description: "Vault name" }, dryRun: { type: "boolean" } }, required: ["vault"] },
    };
  }
  const service = SERVICES[index % SERVICES.length];
  const verb = VERBS[Math.floor(index / SERVICES.length) % VERBS.length];
  const object = OBJECTS[Math.floor(index / (SERVICES.length * VERBS.length)) % OBJECTS.length];
  return {
    name: `${service}_${verb}_${object}_${index}`,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${object} in ${service}. Requires a connected ${service} account; fails when permissions are missing.`,
    parameters: {
      type: "object",
      properties: {
        [`${object}Id`]: { type: "string", description: `The ${object}'s id in ${service}` },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        cursor: { type: "string" },
      },
      required: [`${object}Id`],
    },
  };
}

/** How many tools a new catalog starts with (built-ins, and the plugins and skills of the server's folders). */
async function toolCount(request: APIRequestContext, catalogId: string): Promise<number> {
  const response = await request.get(`/api/catalogs/${catalogId}/tools?limit=1`);
  expect(response.status()).toBe(200);
  return (await response.json()).total;
}

/** Imports one chunk; a 202 names a job, polled until it is done. */
async function importChunk(request: APIRequestContext, catalogId: string, tools: unknown[]) {
  const response = await request.post(`/api/catalogs/${catalogId}/import`, { data: { tools }, timeout: 120_000 });
  if (response.status() === 202) {
    const { job } = await response.json();
    await expect
      .poll(
        async () => {
          const state = await (await request.get(job.url)).json();
          if (state.job.status === "failed") throw new Error(`Import job failed: ${JSON.stringify(state.job.error)}`);
          return state.job.status;
        },
        { timeout: 120_000, intervals: [250, 500, 1_000] },
      )
      .toBe("done");
    return;
  }
  expect(response.status(), await response.text()).toBe(200);
}

test("a 10,000-tool catalog opens at once, is searched as typed, and a tool is edited", async ({ page, request }) => {
  test.setTimeout(300_000);
  const created = await request.post("/api/catalogs", { data: { name: "Scale 10k", description: "10,000 synthetic tools" } });
  expect(created.status()).toBe(201);
  const catalogId = (await created.json()).catalog.id as string;
  const total = ((await toolCount(request, catalogId)) + TOOL_COUNT).toLocaleString("en");
  const all = Array.from({ length: TOOL_COUNT }, (_, index) => syntheticTool(index));
  for (let start = 0; start < all.length; start += CHUNK) await importChunk(request, catalogId, all.slice(start, start + CHUNK));

  // Opens with the count of the whole catalog, rendering only the rows near the viewport.
  const tools = new ToolsPage(page, catalogId);
  const opening = Date.now();
  await tools.goto();
  await expect(tools.count()).toHaveText(`Showing ${total} of ${total} tools`);
  await expect(tools.row("read")).toBeVisible();
  test.info().annotations.push({ type: "tools page open (ms)", description: String(Date.now() - opening) });
  expect(await tools.rows().count()).toBeLessThan(150);

  // Scrolling loads the next pages from the server (100 tools a page), still rendering only the rows in view.
  await expect(tools.row(all[TOOL_COUNT - 1].name)).toHaveCount(0);
  for (const loaded of [100, 200, 300]) {
    await expect(async () => {
      await tools.scrollToEnd();
      expect(await tools.lastRenderedIndex()).toBeGreaterThanOrEqual(loaded);
    }).toPass({ timeout: 15_000 });
  }
  expect(await tools.rows().count()).toBeLessThan(150);
  await tools.scrollToTop();

  // Typed key by key, nothing is lost, and the server answers with the one match.
  const query = "QUOKKA credentials vault";
  await tools.searchBox().focus();
  await tools.typeSearch(query);
  await expect(tools.searchBox()).toHaveValue(query);
  await expect(page).toHaveURL(/q=QUOKKA(\+|%20)credentials(\+|%20)vault/);
  await expect(tools.count()).toHaveText(`Showing 1 of ${total} tools`);
  await expect(tools.rows()).toHaveCount(1);
  await expect(tools.row(TARGET)).toContainText("Rotate the quokka credentials of a vault.");

  // The "/" key focuses the search box again.
  await page.getByTestId("catalog-title").click();
  await page.keyboard.press("/");
  await expect(tools.searchBox()).toBeFocused();

  // Opens the tool, edits its summary, and the change shows in the detail and in the searched table.
  await tools.open(TARGET);
  const editor = new ToolEditorPage(page);
  await editor.fill({ summary: "Rotate a vault's quokka credentials at scale." });
  await editor.save();
  await expect(page.getByText(`Saved ${TARGET}`)).toBeVisible();
  await expect(page.getByLabel(/^Summary/)).toHaveValue("Rotate a vault's quokka credentials at scale.");
  // One Back to the searched table (its cached pages were invalidated by the save; the entry the
  // unsaved-edits guard left in front is passed over: components/save-state.tsx), then a new search.
  await page.goBack();
  await expect(page).toHaveURL(/q=QUOKKA/);
  await expect(tools.row(TARGET)).toContainText("Rotate a vault's quokka credentials at scale.");
  await tools.goto("?q=credentials+at+scale");
  await expect(tools.rows()).toHaveCount(1);
  await expect(tools.row(TARGET)).toContainText("Rotate a vault's quokka credentials at scale.");

  // Disabling it from the table shows at once and holds after a reload of the filtered view.
  await tools.toggle(TARGET);
  await expect(page.getByText(`${TARGET} disabled`)).toBeVisible();
  await tools.goto("?state=disabled&q=quokka");
  await expect(tools.rows()).toHaveCount(1);
  await expect(tools.count()).toHaveText(`Showing 1 of ${total} tools`);
});

test("importing a file from the tools page previews it, asks, shows its progress and then what it changed", async ({ page, request }) => {
  const created = await request.post("/api/catalogs", { data: { name: "Import Progress" } });
  expect(created.status()).toBe(201);
  const catalogId = (await created.json()).catalog.id as string;
  const total = (await toolCount(request, catalogId)) + 300;
  const tools = new ToolsPage(page, catalogId);
  await tools.goto();
  const document = { tools: Array.from({ length: 300 }, (_, index) => syntheticTool(index)) };
  await page.getByTestId("import-file").setInputFiles({ name: "tools.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(document)) });
  await expect(page.getByTestId("import-preview-counts")).toContainText("create 300");
  await page.getByTestId("import-confirm").click();
  await expect(page.getByTestId("import-result")).toHaveText("Imported: 300 created, 0 updated, 0 unchanged");
  await expect(tools.count()).toHaveText(`Showing ${total} of ${total} tools`);
  // The same file again: nothing would change, so there is nothing to confirm.
  await page.getByTestId("import-file").setInputFiles({ name: "tools.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(document)) });
  await expect(page.getByTestId("import-preview-counts")).toContainText("leave 300 unchanged");
  await expect(page.getByTestId("import-nothing")).toBeVisible();
  await page.getByTestId("import-close").click();

  // Over a thousand tools the import runs as a job: its progress shows until the result does.
  const large = { tools: Array.from({ length: 2_500 }, (_, index) => syntheticTool(index)) };
  await page.getByTestId("import-file").setInputFiles({ name: "large.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(large)) });
  await expect(page.getByTestId("import-preview-counts")).toContainText("create 2200", { timeout: 60_000 });
  await page.getByTestId("import-confirm").click();
  await expect(page.getByTestId("import-progress")).toBeVisible();
  await expect(page.getByTestId("import-result")).toHaveText("Imported: 2200 created, 0 updated, 300 unchanged", { timeout: 60_000 });
  await expect(page.getByTestId("import-progress")).toHaveCount(0);
  await expect(tools.count()).toHaveText(`Showing ${(total + 2_200).toLocaleString("en")} of ${(total + 2_200).toLocaleString("en")} tools`);
  // Exactly the tools this import created.
  await page.getByTestId("show-imported").click();
  await expect(tools.count()).toHaveText(`Showing 2,200 of ${(total + 2_200).toLocaleString("en")} tools`);
  await expect(page.getByTestId("changed-in-filter")).toBeVisible();
});
