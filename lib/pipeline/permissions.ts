import { compilePermissions, type PermissionDecision } from "../rules/agents";
import type { PipelineContext, PipelineTool, StageResult, ToolNote } from "./types";

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
  const evaluate = compilePermissions(ctx.agent.permissions);
  // Every denial or question comes from a matching rule, so each rule's wording is built once.
  const agent = ctx.agent.name;
  const because = ctx.agent.permissions.map((rule, index) => describeDecision({ action: rule.action, rule, index }));
  const kept: PipelineTool[] = [];
  const removed: ToolNote[] = [];
  const changed: ToolNote[] = [];
  for (const tool of tools) {
    if (tool.source === "skill" || tool.source === "subagent") {
      kept.push(tool);
      continue;
    }
    const decision = evaluate(tool.name);
    if (decision.action === "deny") {
      removed.push({ name: tool.name, reason: `agent "${agent}" denies ${tool.name} (${because[decision.index]})` });
    } else if (decision.action === "ask") {
      // Object.assign rather than spread: several times faster on catalogs of mixed object shapes.
      kept.push(Object.assign({}, tool, { needsApproval: true }));
      changed.push({ name: tool.name, reason: `agent "${agent}" must ask before each call (${because[decision.index]})` });
    } else {
      kept.push(tool);
    }
  }
  return { tools: kept, removed, changed };
}
