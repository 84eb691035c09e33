import { compilePermissions, type PermissionDecision } from "../rules/agents";
import { screenEach, type ToolScreen } from "./screening";
import type { PipelineContext, PipelineTool, StageResult } from "./types";

export function describeDecision(decision: PermissionDecision): string {
  if (decision.rule === undefined) return "no permission rule matches; allowed by default";
  return `permission rule ${decision.index + 1}: "${decision.rule.pattern}" → ${decision.rule.action}`;
}

/**
 * Stage 5: hides what the agent may not use and marks what it must ask about. Skills and
 * subagents are not called by their own names, so they are left to the delegation stage,
 * which checks them as `skill:<name>` and `task:<name>`.
 */
export function applyPermissions(tools: PipelineTool[], ctx: PipelineContext): StageResult {
  return screenEach(tools, permissionsScreen(ctx));
}

/** Stage 5 for one tool at a time. */
export function permissionsScreen(ctx: PipelineContext): ToolScreen {
  const evaluate = compilePermissions(ctx.agent.permissions);
  // Every denial or question comes from a matching rule, so each rule's wording is built once.
  const agent = ctx.agent.name;
  const because = ctx.agent.permissions.map((rule, index) => describeDecision({ action: rule.action, rule, index }));
  return (tool) => {
    if (tool.source === "skill" || tool.source === "subagent") return undefined;
    const decision = evaluate(tool.name);
    if (decision.action === "deny") return { removed: `agent "${agent}" denies ${tool.name} (${because[decision.index]})` };
    if (decision.action !== "ask") return undefined;
    // Object.assign rather than spread: several times faster on catalogs of mixed object shapes.
    // A frozen tool's copy is frozen too, so what later stages derive from it is remembered.
    const kept = Object.assign({}, tool, { needsApproval: true });
    return { kept: Object.isFrozen(tool) ? Object.freeze(kept) : kept, changed: `agent "${agent}" must ask before each call (${because[decision.index]})` };
  };
}
