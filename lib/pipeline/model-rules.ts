import { explainModelRuleMatch, type ModelRule } from "../rules/model-rules";
import { screenEach, type ToolScreen } from "./screening";
import type { PipelineContext, PipelineTool, StageResult } from "./types";

interface Decision {
  enabled: boolean;
  rule: ModelRule;
  match: string;
  overrides?: ModelRule;
}

/** Stage 2: the matching model rules, in order; the last rule to mention a tool decides. */
export function applyModelRules(tools: PipelineTool[], ctx: PipelineContext): StageResult {
  return screenEach(tools, modelRulesScreen(ctx));
}

/** Stage 2 for one tool at a time, the rules matched once. */
export function modelRulesScreen(ctx: PipelineContext): ToolScreen {
  const decisions = new Map<string, Decision>();
  for (const rule of ctx.modelRules) {
    const match = explainModelRuleMatch(rule, ctx.modelId);
    if (match === undefined) continue;
    const decide = (name: string, enabled: boolean) => {
      const previous = decisions.get(name);
      const overrides = previous && previous.enabled !== enabled ? previous.rule : undefined;
      decisions.set(name, { enabled, rule, match, overrides });
    };
    for (const name of rule.enable) decide(name, true);
    for (const name of rule.disable) decide(name, false);
  }
  return (tool) => {
    const decision = decisions.get(tool.name);
    if (decision === undefined || decision.enabled) return undefined;
    const overriding = decision.overrides ? `, overriding model rule "${decision.overrides.name}"` : "";
    return { removed: `model rule "${decision.rule.name}" (${decision.match}) disables ${tool.name}${overriding}` };
  };
}
