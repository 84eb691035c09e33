import type { APIRequestContext } from "@playwright/test";
import { AppShell } from "./pages/app-shell";
import { ToolPage } from "./pages/tool-page";
import { createCatalog } from "./support/catalogs";
import { expect, test } from "./support/fixtures";
import { DESKTOP_AND_PHONE } from "./support/viewports";

const LONG = `Sends one e-mail to one recipient. ${"It checks the address, the subject and the body before sending, and says why it refused. ".repeat(3)}`;
const ADDED = "Then it keeps a copy in the Sent folder and returns its id.";

/** The id of a tool's first entry in its history: its creation. */
async function createdEntryId(request: APIRequestContext, path: string): Promise<number> {
  const response = await request.get(path);
  expect(response.ok()).toBe(true);
  return (await response.json()).entries.at(-1).id;
}

for (const viewport of DESKTOP_AND_PHONE) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a tool's history shows a long description in full, word by word, and a restore says it renames the tool back before it does", async ({
      page,
      request,
    }) => {
      const catalogId = await createCatalog(request, "History");
      const tools = `/api/catalogs/${catalogId}/tools`;
      const draft = { name: "sendMail", summary: "Send an e-mail.", description: LONG, inputSchema: { type: "object", properties: {} } };
      expect((await request.post(tools, { data: draft })).status()).toBe(201);
      expect((await request.patch(`${tools}/sendMail`, { data: { name: "send_mail", description: `${LONG}${ADDED}` } })).ok()).toBe(true);
      const createdId = await createdEntryId(request, `${tools}/send_mail/audit`);

      const tool = new ToolPage(page, catalogId);
      const shell = new AppShell(page);
      await tool.goto("send_mail");
      const change = tool.entries().first().getByTestId("change-description");
      // All of it, far past the 160 characters the history used to keep.
      await expect(change).toContainText(LONG.trim());
      await expect(change.locator("ins")).toHaveText([`added: ${ADDED}`]);

      // Restoring the version it was created as brings its first name back, and says so first.
      const dialog = await tool.askToRestore(createdId);
      await expect(dialog.getByTestId("restore-changes")).toContainText("renames send_mail back to sendMail");
      await expect(dialog.getByTestId("restore-changes")).toContainText("changes its description");
      expect(await shell.seriousViolations()).toEqual([]);
      expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
      await dialog.getByTestId("confirm-action").click();
      await expect(page).toHaveURL(new RegExp(`/catalogs/${catalogId}/tools/sendMail$`));
    });

    test("the Rules history names each model rule by its name, not by its id", async ({ page, request }) => {
      const catalogId = await createCatalog(request, "Rules history");
      const rules = `/api/catalogs/${catalogId}/rules`;
      const { modelRules } = (await (await request.get(rules)).json()).rules as { modelRules: { id: string; disable: string[] }[] };
      const changed = modelRules.map((rule) => (rule.id === "patch-preferring-gpt" ? { ...rule, disable: ["edit"] } : rule));
      expect((await request.put(rules, { data: { modelRules: changed } })).ok()).toBe(true);

      const shell = new AppShell(page);
      await shell.open(`/catalogs/${catalogId}/rules`, (page) => page.getByTestId("audit-entry"));
      const entry = page.getByTestId("audit-entry").first();
      await expect(entry.getByTestId("audit-subject")).toHaveText("Model rules");
      await expect(entry.getByTestId("rule-change")).toHaveText(["~ model rule “Patch-preferring GPT models” changed: disable: − write"]);
      await expect(entry).not.toContainText("patch-preferring-gpt");
      expect(await shell.pageOverflow()).toBeLessThanOrEqual(0);
    });
  });
}
