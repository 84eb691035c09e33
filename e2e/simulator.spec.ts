import { expect, test } from "./support/fixtures";
import { SimulatorPage } from "./pages/simulator-page";
import { AppShell } from "./pages/app-shell";

test("gpt-5 sees apply_patch, claude-sonnet-4-5 sees edit, and the trace names the rule that removed edit", async ({ page }) => {
  const simulator = new SimulatorPage(page, "demo");
  await simulator.goto("model=gpt-5&agent=build");
  await expect(simulator.finalTool("a", "apply_patch")).toBeVisible();
  await expect(simulator.finalTool("a", "edit")).toHaveCount(0);
  await expect(await simulator.whyMissing("a", "edit")).toContainText('removed at model-rules: model rule "Patch-preferring GPT models"');
  await expect(simulator.column("a").getByTestId("stage-model-rules")).toContainText("edit");

  await simulator.setModel("a", "claude-sonnet-4-5");
  await expect(page).toHaveURL(/model=claude-sonnet-4-5/);
  await expect(simulator.finalTool("a", "edit")).toBeVisible();
  await expect(simulator.finalTool("a", "apply_patch")).toHaveCount(0);
});

test("two configurations side by side, shared as a link, with the difference highlighted", async ({ page }) => {
  const simulator = new SimulatorPage(page, "demo");
  await simulator.goto("model=gpt-5&agent=build");
  await page.getByTestId("compare").click();
  await expect(page).toHaveURL(/bmodel=claude-sonnet-4-5&bagent=plan/);
  await expect(simulator.finalTool("b", "plan")).toHaveAttribute("data-only-here", "true");
  await expect(simulator.finalTool("a", "bash")).toHaveAttribute("data-only-here", "true");
  await expect(simulator.finalTool("a", "read")).not.toHaveAttribute("data-only-here", "true");
  await expect(simulator.column("b").getByTestId("difference")).toContainText("plan");

  await page.reload();
  await expect(simulator.finalTool("b", "plan")).toBeVisible();
  await expect(await simulator.whyMissing("b", "bash")).toContainText("deny");
});

test("denying a tool in an agent's permissions removes it from the simulation", async ({ page }) => {
  const simulator = new SimulatorPage(page, "demo");
  await simulator.goto("model=claude-sonnet-4-5&agent=build");
  await expect(simulator.finalTool("a", "webfetch")).toBeVisible();

  await page.goto("/catalogs/demo/agents");
  await page.getByTestId("edit-agent-build").click();
  const form = page.getByTestId("agent-form-build");
  await form.getByTestId("add-permission").click();
  await form.getByLabel("Pattern 2").fill("webfetch");
  await form.getByLabel("Action 2").selectOption("deny");
  await form.getByTestId("save-agent").click();
  await expect(page.getByText("Saved agent build")).toBeVisible();
  await expect(page.getByTestId("agent-build")).toContainText("webfetch → deny");

  await simulator.goto("model=claude-sonnet-4-5&agent=build");
  await expect(simulator.finalTool("a", "webfetch")).toHaveCount(0);
  await expect(await simulator.whyMissing("a", "webfetch")).toContainText("removed at permissions");
});

test("a model rule with a bad pattern and an unknown tool is refused with both errors", async ({ page }) => {
  await page.goto("/catalogs/demo/rules");
  const rule = page.getByTestId("model-rule-1");
  const include = rule.getByLabel("Include models");
  // Typed before React hydrates the field, the text lands beside the rule's own, not in its place.
  await new AppShell(page).hydrated(include);
  await include.fill("gpt (5)");
  await rule.getByLabel("Enable tools").fill("apply_patch, no_such_tool");
  await page.getByTestId("probe-model").fill("gpt-5-mini");
  await page.getByTestId("save-model-rules").click();
  const errors = page.getByTestId("rule-errors-1");
  // Named as the form names it, with the item as typed, not by its path in the request.
  await expect(errors).toContainText("Include models “gpt (5)”");
  await expect(errors).toContainText('There is no tool named "no_such_tool"');
});
