import { describe, expect, it } from "vitest";
import { modelRuleFieldLabel, relabelMessage, unknownRuleTools } from "@/components/model-rule-problems";

const rules = [
  { name: "Every model", include: ["*"], exclude: [], enable: ["edit"], disable: [] },
  { name: "GPT rules", include: ["gpt-"], exclude: ["oss"], enable: ["apply_patch"], disable: ["edit", "wirte"] },
];

describe("model rule problems in the form's words", () => {
  it("names the rule, the field and the item typed instead of a path", () => {
    expect(modelRuleFieldLabel("modelRules.1.disable.1", rules)).toBe("Rule 2 “GPT rules” · Disable tools “wirte”");
    expect(modelRuleFieldLabel("modelRules.0.include", rules)).toBe("Rule 1 “Every model” · Include models");
    expect(modelRuleFieldLabel("modelRules.1", rules)).toBe("Rule 2 “GPT rules”");
    expect(modelRuleFieldLabel("modelRules.4.exclude.0", rules)).toBe("Rule 5 · Exclude models, item 1");
    expect(modelRuleFieldLabel("providers.0.id", rules)).toBe("providers.0.id");
  });

  it("relabels the fields a server message names", () => {
    const label = (field: string) => modelRuleFieldLabel(field, rules);
    expect(relabelMessage('There is no tool named "wirte" in this catalog. (modelRules.1.disable.1)', label)).toBe(
      'There is no tool named "wirte" in this catalog. (Rule 2 “GPT rules” · Disable tools “wirte”)',
    );
  });

  it("finds the unknown tool names of a rule's lists as they are typed, with a suggestion", () => {
    const names = ["edit", "write", "apply_patch"];
    expect(unknownRuleTools(rules[1], names, new Set(names))).toEqual([{ field: "disable", unknown: [{ name: "wirte", position: 1, suggestion: "write" }] }]);
    expect(unknownRuleTools(rules[0], names, new Set(names))).toEqual([]);
  });
});
