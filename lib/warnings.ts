import { contextWindowOf, toolCountLimitOf } from "./models/limits";
import type { PermissionRule } from "./rules/agents";
import { explainModelRuleMatch, type ModelRule } from "./rules/model-rules";
import { compileNamePattern } from "./rules/patterns";

/** Something that will likely go wrong, said where it can be fixed: "error" will fail, "warning" may. */
export interface Warning {
  level: "error" | "warning";
  message: string;
}

/** Tool definitions taking this share of the context window or more leave too little for the conversation. */
const LARGE_SHARE = 0.25;

const count = (value: number) => value.toLocaleString("en");

/** The simulator's final list against the model's context window and the provider's tool-count limit. */
export function toolListWarnings(list: { model: string; provider: string | undefined; toolCount: number; tokens: number }): Warning[] {
  const warnings: Warning[] = [];
  const limit = toolCountLimitOf(list.provider);
  if (limit !== undefined && list.toolCount > limit) {
    warnings.push({
      level: "error",
      message: `${list.provider} accepts at most ${count(limit)} tools per request: this list has ${count(list.toolCount)}, so the request will be refused.`,
    });
  }
  const window = contextWindowOf(list.model);
  if (window !== undefined) {
    const share = list.tokens / window;
    if (share >= 1) {
      warnings.push({
        level: "error",
        message: `The tool definitions alone (${count(list.tokens)} tokens) exceed ${list.model}'s context window of ${count(window)} tokens.`,
      });
    } else if (share >= LARGE_SHARE) {
      warnings.push({
        level: "warning",
        message: `The tool definitions take ${Math.round(share * 100)}% of ${list.model}'s context window (${count(list.tokens)} of ${count(window)} tokens), leaving less room for the conversation.`,
      });
    }
  }
  return warnings;
}

/** A model rule that applies to none of the known models: most likely a pattern with a typo. */
export function modelRuleWarnings(rule: ModelRule, knownModels: { id: string }[]): Warning[] {
  if (knownModels.some((model) => explainModelRuleMatch(rule, model.id) !== undefined)) return [];
  return [{ level: "warning", message: `This rule matches none of the ${knownModels.length} known models: check its patterns for a typo.` }];
}

/**
 * An agent's permission rules whose pattern names a tool or a subagent that does not exist (or, a
 * glob, matches none): they decide nothing, most likely a typo or a renamed tool. `skill:` keys
 * are not checked.
 */
export function permissionWarnings(rules: PermissionRule[], known: { toolNames: string[]; agentNames: string[] }): (Warning & { index: number })[] {
  const warnings: (Warning & { index: number })[] = [];
  rules.forEach((rule, index) => {
    const pattern = rule.pattern.trim();
    if (!pattern || pattern === "*" || pattern.startsWith("skill:")) return;
    const task = pattern.startsWith("task:");
    const names = task ? known.agentNames : known.toolNames;
    const matches = compileNamePattern(task ? pattern.slice("task:".length) : pattern);
    if (names.some((name) => matches(name))) return;
    const what = task ? "agent" : "tool";
    const message = pattern.includes("*")
      ? `"${pattern}" matches no ${what} of this catalog: the rule decides nothing.`
      : `There is no ${what} named "${task ? pattern.slice("task:".length) : pattern}" in this catalog: the rule decides nothing.`;
    warnings.push({ level: "warning", index, message });
  });
  return warnings;
}

/** A catalog whose every model gets an empty list. */
export function catalogWarnings(catalog: { toolCount: number; enabledCount: number }): Warning[] {
  if (catalog.toolCount === 0) return [{ level: "warning", message: "This catalog has no tools yet: every model gets an empty list." }];
  if (catalog.enabledCount === 0) return [{ level: "warning", message: "No tool is enabled in this catalog: every model gets an empty list." }];
  return [];
}
