import type { APIRequestContext, Page } from "@playwright/test";
import { AppShell } from "./pages/app-shell";
import { OverridesForm } from "./pages/overrides-form";
import { SimulatorPage } from "./pages/simulator-page";
import { SourcesPage } from "./pages/sources-page";
import { ToolPage } from "./pages/tool-page";
import { createCatalog } from "./support/catalogs";
import { addDefinedToolsServer, type DefinedToolsServer } from "./support/defined-tools-server";
import { expect, test } from "./support/fixtures";
import { DESKTOP_AND_PHONE } from "./support/viewports";

// Issue 25: a catalog's per-tool overrides of a parameter default and an MCP annotation, on a real
// stdio MCP server whose tools a JSON file defines, through re-syncs.
const TOOL = "shop__orders";
const ORDERS = {
  name: "orders",
  description: "Lists the shop's orders.",
  inputSchema: {
    type: "object",
    properties: { status: { type: "string" }, limit: { type: "integer", minimum: 1 } },
    required: ["status"],
  },
  annotations: { readOnlyHint: false },
};
/** The server upgraded: other wording, the same parameters. */
const REWORDED = { ...ORDERS, description: "Lists the shop's orders, newest first." };
/** The server upgraded again: `limit` is gone. */
const WITHOUT_LIMIT = { ...REWORDED, inputSchema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] } };

/** What the Rules form saves: the default of `limit`, a title and the read-only hint, for every model. */
const OVERRIDE = { tool: TOOL, models: [], defaults: { limit: 25 }, annotations: { title: "Order list", readOnlyHint: true } };
const APPLIED = /^~shop__orders catalog override for every model replaces the default of limit and annotations title, readOnlyHint$/;
const ANNOTATIONS_ONLY = /^~shop__orders catalog override for every model replaces the annotations title, readOnlyHint$/;
const NOT_APPLIED =
  /^~shop__orders catalog override for every model: default of limit not applied: Tool "shop__orders" has no parameter "limit" \(its parameters: status\)\.$/;

async function storedOverrides(request: APIRequestContext, catalogId: string) {
  const response = await request.get(`/api/catalogs/${catalogId}/rules`);
  expect(response.ok()).toBe(true);
  return (await response.json()).rules.overrides;
}

/** The parameters of the tool as a model is handed it (gpt-5, agent build): what the Simulator's list holds. */
async function parametersHandedOver(request: APIRequestContext, catalogId: string) {
  const response = await request.post(`/api/catalogs/${catalogId}/tool-list`, { data: { model: "gpt-5", agent: "build", format: "ai-sdk" } });
  expect(response.ok()).toBe(true);
  const { tools } = (await response.json()) as { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] };
  return tools.find((tool) => tool.name === TOOL)?.inputSchema.properties;
}

/** The server redefines its tool; a sync holds the change back, and its review on the tool's page approves it. */
async function redefineAndApprove(page: Page, sources: SourcesPage, tool: ToolPage, shop: DefinedToolsServer, definition: { description: string }) {
  shop.define([definition]);
  await sources.goto();
  await sources.sync("shop");
  await expect(page.getByText("Synced shop: 0 added, 0 updated, 0 unregistered, 1 held back for review")).toBeVisible();
  await tool.goto(TOOL);
  await expect(tool.pendingChange()).toBeVisible();
  // The review says which fields models get from the catalog whichever definition is approved.
  await expect(tool.overriddenNote()).toContainText("“default of limit”, “annotation title”, “annotation readOnlyHint”");
  await tool.approvePending();
  await expect(tool.pendingChange()).toHaveCount(0);
  await expect(tool.definition()).toContainText(definition.description);
}

/** A row of the tool page's panel: its upstream cell, then its override cell. */
const cells = (tool: ToolPage, field: string) => tool.overriddenField(field).locator("td");

for (const viewport of DESKTOP_AND_PHONE) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an override of a parameter default and an annotation: set in Rules, shown on the tool's page and applied in the Simulator, kept through a re-sync, and not applied once the server drops the parameter", async ({
      page,
      request,
    }) => {
      test.slow();
      const catalogId = await createCatalog(request, "Overrides");
      const shell = new AppShell(page);
      const sources = new SourcesPage(page, catalogId);
      const tool = new ToolPage(page, catalogId);
      const simulator = new SimulatorPage(page, catalogId);
      try {
        const shop = await addDefinedToolsServer(sources, page, [ORDERS]);

        // Rules: one override, typed as a person would, checked by axe while filled in.
        const form = new OverridesForm(page, catalogId);
        await form.goto();
        await expect(form.section()).toContainText("No overrides.");
        const index = await form.add();
        await form.fill(index, { tool: TOOL, defaults: '{"limit": 25}', title: "Order list", hints: { readOnlyHint: "true" } });
        expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
        expect(await shell.seriousViolations()).toEqual([]);
        await form.save();
        await expect(page.getByText("Overrides saved")).toBeVisible();
        expect(await storedOverrides(request, catalogId)).toEqual([OVERRIDE]);

        // The tool's page: each field its source's value beside the catalog's.
        await tool.goto(TOOL);
        await expect(tool.overrides()).toBeVisible();
        await expect(tool.overrides()).toContainText("For every model");
        await expect(cells(tool, "default of limit")).toHaveText(["—", "25"]);
        await expect(cells(tool, "annotation title")).toHaveText(["—", "Order list"]);
        await expect(cells(tool, "annotation readOnlyHint")).toHaveText(["false", "true"]);
        await expect(tool.overrides().getByTestId("override-ignored")).toHaveCount(0);
        expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
        expect(await shell.seriousViolations()).toEqual([]);

        // The Simulator: the override applied at its stage, and the tool's "why" names it.
        await simulator.goto(`model=gpt-5&agent=build&why=${TOOL}`);
        await expect(simulator.finalTool("a", TOOL)).toBeVisible();
        await expect(simulator.changedAt("a", "definition-overrides", TOOL)).toHaveText([APPLIED]);
        await expect(simulator.column("a").getByTestId("why-answer")).toContainText("replaces the default of limit");
        expect(await parametersHandedOver(request, catalogId)).toEqual({ status: { type: "string" }, limit: { type: "integer", minimum: 1, default: 25 } });
        expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);

        // The server rewords its tool: held back, approved; the override still applies on top.
        await redefineAndApprove(page, sources, tool, shop, REWORDED);
        await expect(cells(tool, "default of limit")).toHaveText(["—", "25"]);
        await expect(cells(tool, "annotation readOnlyHint")).toHaveText(["false", "true"]);
        await simulator.goto(`model=gpt-5&agent=build&why=${TOOL}`);
        await expect(simulator.changedAt("a", "definition-overrides", TOOL)).toHaveText([APPLIED]);
        expect(await parametersHandedOver(request, catalogId)).toEqual({ status: { type: "string" }, limit: { type: "integer", minimum: 1, default: 25 } });
        expect(await storedOverrides(request, catalogId)).toEqual([OVERRIDE]);

        // The server drops `limit`: its default is not applied, and both the page and the trace say why; the rest still applies.
        await redefineAndApprove(page, sources, tool, shop, WITHOUT_LIMIT);
        await expect(cells(tool, "default of limit").last()).toContainText("25");
        await expect(tool.overriddenField("default of limit").getByTestId("override-ignored")).toHaveText(
          'Not applied: Tool "shop__orders" has no parameter "limit" (its parameters: status).',
        );
        await expect(cells(tool, "annotation title")).toHaveText(["—", "Order list"]);
        expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
        expect(await shell.seriousViolations()).toEqual([]);
        await simulator.goto(`model=gpt-5&agent=build&why=${TOOL}`);
        await expect(simulator.finalTool("a", TOOL)).toBeVisible();
        await expect(simulator.changedAt("a", "definition-overrides", TOOL)).toHaveText([NOT_APPLIED, ANNOTATIONS_ONLY]);
        expect(await parametersHandedOver(request, catalogId)).toEqual({ status: { type: "string" } });
        // The stored override is kept as it was, for a server that brings the parameter back.
        expect(await storedOverrides(request, catalogId)).toEqual([OVERRIDE]);
      } finally {
        await request.delete(`/api/catalogs/${catalogId}/mcp-servers/shop`);
      }
    });

    test("a parameter default that breaks the parameter's type: the form names the field and why, and the stored override stays as it was", async ({
      page,
      request,
    }) => {
      const catalogId = await createCatalog(request, "Bad default");
      const shell = new AppShell(page);
      try {
        await addDefinedToolsServer(new SourcesPage(page, catalogId), page, [ORDERS]);
        expect((await request.put(`/api/catalogs/${catalogId}/rules`, { data: { overrides: [OVERRIDE] } })).ok()).toBe(true);

        const form = new OverridesForm(page, catalogId);
        await form.goto();
        await expect(form.defaults(0)).toHaveValue('{\n  "limit": 25\n}');
        await form.defaults(0).fill('{"limit": "lots"}');
        await form.save();
        await expect(form.problems(0)).toHaveText(
          'overrides.0.defaults.limit The default "lots" for "limit" of tool "shop__orders" does not match the parameter\'s schema: must be integer.',
        );
        await expect(form.defaults(0)).toHaveAttribute("aria-invalid", "true");
        await expect(page.getByText("Overrides saved")).toHaveCount(0);
        expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
        expect(await shell.seriousViolations()).toEqual([]);

        // Nothing was stored: the API and the tool's page still have the default of 25.
        expect(await storedOverrides(request, catalogId)).toEqual([OVERRIDE]);
        const other = await page.context().newPage();
        const tool = new ToolPage(other, catalogId);
        await tool.goto(TOOL);
        await expect(cells(tool, "default of limit")).toHaveText(["—", "25"]);
        await other.close();
      } finally {
        await request.delete(`/api/catalogs/${catalogId}/mcp-servers/shop`);
      }
    });
  });
}
