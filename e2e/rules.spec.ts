import { AppShell } from "./pages/app-shell";
import { RulesPage } from "./pages/rules-page";
import { expect, test } from "./support/fixtures";

for (const viewport of [
  { name: "wide screen", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`Rules on a ${viewport.name}: examples look like examples, typos are caught as typed, and an edit's effect on a model's list shows before Save`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const saved = (await (await request.get("/api/catalogs/demo/rules")).json()).rules.modelRules;
    const rules = new RulesPage(page, "demo");
    await rules.goto();

    // An empty field shows an example, set apart from a value: "e.g.", faint and in italics.
    const exclude = rules.field(0, "Exclude models");
    await expect(exclude).toHaveValue("");
    await expect(exclude).toHaveAttribute("placeholder", /^e\.g\. /);
    expect(await exclude.evaluate((input) => getComputedStyle(input, "::placeholder").fontStyle)).toBe("italic");

    // A typo in a tool name is told at once, with the name meant, and one click puts it in.
    await rules.field(1, "Disable tools").fill("edit, wirte");
    await expect(rules.unknownTool(1, "disable", 1)).toContainText("“wirte” is not a tool of this catalog. Did you mean “write”?");
    // Saved anyway, the server's refusal names the rule and the field, not a path.
    await rules.save();
    await expect(rules.saveError()).toContainText("Rule 2 “Patch-preferring GPT models” · Disable tools “wirte”");
    await expect(rules.saveError()).not.toContainText("modelRules.");
    await rules.unknownTool(1, "disable", 1).getByRole("button", { name: "Use “write”" }).click();
    await expect(rules.field(1, "Disable tools")).toHaveValue("edit, write");
    await expect(rules.unknownTool(1, "disable", 1)).toHaveCount(0);

    // What the edit does to gpt-5's list as the build agent, before Save: it gets write back.
    await rules.field(1, "Disable tools").fill("edit");
    await rules.tryModel("gpt-5");
    await rules.preview("build");
    await expect(rules.previewResult()).toContainText("Gains: write");
    await expect(rules.previewResult()).not.toContainText("Loses:");
    expect(await new AppShell(page).seriousViolations()).toEqual([]);
    expect(await new AppShell(page).pageOverflow()).toBeLessThanOrEqual(0);
    // Nothing was saved.
    expect((await (await request.get("/api/catalogs/demo/rules")).json()).rules.modelRules).toEqual(saved);
  });
}
