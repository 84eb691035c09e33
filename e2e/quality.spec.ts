import type { APIRequestContext } from "@playwright/test";
import { AppShell } from "./pages/app-shell";
import { QualityPanel } from "./pages/quality-panel";
import { ToolsPage } from "./pages/tools-page";
import { expect, test } from "./support/fixtures";

/** Forty tools whose summaries are one template with the name filled in, as generated catalogs write them. */
const TEMPLATED = Array.from({ length: 40 }, (_, index) => `acme_op_${String.fromCharCode(97 + (index % 26))}${Math.floor(index / 26)}`);
const GOOD = [
  { name: "stripe_refund", summary: "Refund a card payment to the customer through Stripe." },
  { name: "room_booking", summary: "Reserve a meeting room in the office for a time slot." },
  { name: "translate_text", summary: "This tool translates a paragraph of text from French into German." },
];

async function createCatalog(request: APIRequestContext): Promise<string> {
  const created = await request.post("/api/catalogs", { data: { name: `Quality ${Date.now().toString(36)}` } });
  expect(created.status()).toBe(201);
  const catalogId: string = (await created.json()).catalog.id;
  for (const tool of [...TEMPLATED.map((name) => ({ name, summary: `Calls the ${name} operation of the Acme API.` })), ...GOOD]) {
    const response = await request.post(`/api/catalogs/${catalogId}/tools`, { data: { ...tool, description: tool.summary, inputSchema: { type: "object" } } });
    expect(response.status(), await response.text()).toBe(201);
  }
  // Something ran, so the report judges the tools nothing chose.
  const search = await request.post(`/api/catalogs/${catalogId}/tool-search`, { data: { model: "gpt-5", agent: "build", query: "select:stripe_refund" } });
  expect(search.ok()).toBe(true);
  return catalogId;
}

for (const viewport of [
  { name: "wide screen", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`quality report on a ${viewport.name}: one fix line per repeated finding, boilerplate found, the always-on built-ins never told to go`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const catalogId = await createCatalog(request);
    const tools = new ToolsPage(page, catalogId);
    await tools.goto();
    const quality = new QualityPanel(page);
    await quality.open();

    // Forty-odd tools nothing chose: one fix line, its tools collapsed under it; the page stays short.
    // (Two groups at most: the built-ins that are no agent's base tool get a fix without "disable".)
    const fixes = await quality.section("never-chosen").getByText("Fix:").count();
    expect(fixes).toBeGreaterThanOrEqual(1);
    expect(fixes).toBeLessThanOrEqual(2);
    await expect(quality.group("never-chosen")).toContainText(/\d+ findings: /);
    await expect(quality.finding("never-chosen", [TEMPLATED[0]])).toBeHidden();
    expect((await quality.panel().boundingBox())?.height).toBeLessThan(viewport.width < 500 ? 2_600 : 1_600);

    // Read, write and edit are the build agent's base tools, handed to every turn: never "never chosen", never to disable.
    for (let index = 0; index < fixes; index++) await quality.expand("never-chosen", index);
    await expect(quality.finding("never-chosen", [TEMPLATED[0]])).toBeVisible();
    for (const builtin of ["read", "write", "edit"]) await expect(quality.finding("never-chosen", [builtin])).toHaveCount(0);
    await expect(quality.panel()).not.toContainText(/disable (it|one)[^.]*\b(read|write|edit)\b/);

    // The templated summaries and the "This tool …" opener are boilerplate, in one group with one fix.
    await expect(quality.section("boilerplate-summary")).toContainText(`Boilerplate summaries (${TEMPLATED.length + 1})`);
    await expect(quality.fix("boilerplate-summary")).toHaveCount(1);
    await quality.expand("boilerplate-summary");
    await expect(quality.finding("boilerplate-summary", ["translate_text"])).toBeVisible();
    await expect(quality.finding("boilerplate-summary", [TEMPLATED[39]])).toBeVisible();
    await expect(quality.finding("boilerplate-summary", ["stripe_refund"])).toHaveCount(0);

    expect(await new AppShell(page).seriousViolations()).toEqual([]);
  });
}
