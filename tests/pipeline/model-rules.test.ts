import { describe, expect, it } from "vitest";
import { applyModelRules } from "../../lib/pipeline/model-rules";
import { runPipeline } from "../../lib/pipeline/run";
import type { ModelRule } from "../../lib/rules/model-rules";
import { builtinSet, context, makeTool, names } from "./fixtures";

const EDITING = ["edit", "write", "apply_patch"];

function editingToolsFor(modelId: string): string[] {
  const { tools } = runPipeline(builtinSet(), context({ modelId }));
  return names(tools).filter((name) => EDITING.includes(name));
}

describe("default model rules", () => {
  it.each([
    ["gpt-5", ["apply_patch"]],
    ["gpt-5-mini", ["apply_patch"]],
    ["gpt-5-codex", ["apply_patch"]],
    ["openai/gpt-5", ["apply_patch"]],
    ["gpt-4.1", ["write", "edit"]],
    ["gpt-4o", ["write", "edit"]],
    ["gpt-oss-120b", ["write", "edit"]],
    ["claude-sonnet-4-5", ["write", "edit"]],
    ["gemini-2.5-pro", ["write", "edit"]],
    ["o3", ["write", "edit"]],
  ])("%s edits with %j", (modelId, expected) => {
    expect(editingToolsFor(modelId)).toEqual(expected);
  });

  it("names the deciding rule and why it matched", () => {
    const result = applyModelRules(builtinSet(), context({ modelId: "gpt-5" }));
    const edit = result.removed.find((note) => note.name === "edit");
    expect(edit?.reason).toBe(
      'model rule "Patch-preferring GPT models" (gpt-5 matches "gpt-"; excludes "oss", "gpt-4" don\'t match) disables edit, overriding model rule "Edit-based editing (every model)"',
    );
    const claude = applyModelRules(builtinSet(), context({ modelId: "claude-sonnet-4-5" }));
    expect(claude.removed).toEqual([
      { name: "apply_patch", reason: 'model rule "Edit-based editing (every model)" (claude-sonnet-4-5 matches "*") disables apply_patch' },
    ]);
  });
});

describe("custom model rules", () => {
  const rule = (id: string, fields: Partial<ModelRule>): ModelRule => ({
    id,
    name: id,
    include: ["*"],
    exclude: [],
    enable: [],
    disable: [],
    ...fields,
  });
  const tools = [makeTool("alpha"), makeTool("beta")];

  it("lets a later rule re-enable what an earlier one disabled", () => {
    const modelRules = [rule("off", { disable: ["alpha", "beta"] }), rule("on", { include: ["mini"], enable: ["alpha"] })];
    expect(names(applyModelRules(tools, context({ modelId: "gpt-5-mini", modelRules })).tools)).toEqual(["alpha"]);
    expect(names(applyModelRules(tools, context({ modelId: "gpt-5", modelRules })).tools)).toEqual([]);
  });

  it("ignores rules whose exclude pattern matches", () => {
    const modelRules = [rule("off", { include: ["claude"], exclude: ["haiku"], disable: ["alpha"] })];
    expect(names(applyModelRules(tools, context({ modelId: "claude-haiku-4-5", modelRules })).tools)).toEqual(["alpha", "beta"]);
    expect(names(applyModelRules(tools, context({ modelId: "claude-opus-4-1", modelRules })).tools)).toEqual(["beta"]);
  });

  it("lets disable win over enable within one rule", () => {
    const modelRules = [rule("both", { enable: ["alpha"], disable: ["alpha"] })];
    expect(names(applyModelRules(tools, context({ modelId: "any", modelRules })).tools)).toEqual(["beta"]);
  });
});
