import { compilePermissions, type PermissionEvaluator } from "../rules/agents";
import { SKILLS_PLACEHOLDER } from "../tools/builtin/skill";
import { SUBAGENTS_PLACEHOLDER } from "../tools/builtin/task";
import { describeDecision } from "./permissions";
import type { PipelineContext, PipelineTool, StageResult, ToolNote } from "./types";

interface Entry {
  name: string;
  description: string;
}

const listNames = (items: { name: string }[]) => items.map((item) => item.name).join(", ");

/** Fills the tool's placeholder with the entries, or appends them when the text has none. */
function withListing(description: string, placeholder: string, heading: string, entries: Entry[]): string {
  const listing = entries.map((entry) => `- ${entry.name}: ${entry.description}`).join("\n");
  if (description.includes(placeholder)) return description.replace(placeholder, () => listing);
  return `${description}\n\n${heading}\n${listing}`;
}

function partitionAllowed(
  candidates: Entry[],
  prefix: "task" | "skill",
  evaluate: PermissionEvaluator,
  agentName: string,
): { allowed: Entry[]; denied: ToolNote[] } {
  const allowed: Entry[] = [];
  const denied: ToolNote[] = [];
  for (const candidate of candidates) {
    const decision = evaluate(`${prefix}:${candidate.name}`);
    if (decision.action === "deny") {
      const reason = `agent "${agentName}" denies ${prefix}:${candidate.name} (${describeDecision(decision)})`;
      denied.push({ name: candidate.name, reason });
    } else {
      allowed.push(candidate);
    }
  }
  return { allowed, denied };
}

/**
 * Stage 6: subagents and skills reach the model as lists inside the `task` and `skill`
 * descriptions, never as tools of their own. `task` lists every other agent that can run as a
 * subagent and that `task:<name>` allows; `skill` lists the skill-source tools that survived
 * the earlier stages and that `skill:<name>` allows. An entry point with nothing to list is
 * removed, since the model could only call it in vain.
 */
export function applyDelegation(tools: PipelineTool[], ctx: PipelineContext): StageResult {
  const evaluate = compilePermissions(ctx.agent.permissions);
  const agentName = ctx.agent.name;
  const removed: ToolNote[] = [];
  const changed: ToolNote[] = [];

  const subagents = partitionAllowed(
    ctx.agents.filter((agent) => agent.mode !== "primary" && agent.name !== agentName),
    "task",
    evaluate,
    agentName,
  );
  const skillTools = tools.filter((tool) => tool.source === "skill");
  const skills = partitionAllowed(skillTools, "skill", evaluate, agentName);
  const skillDenials = new Map(skills.denied.map((note) => [note.name, note]));
  const skillEntryPoint = tools.some((tool) => tool.name === "skill" && tool.source !== "skill");

  const kept: PipelineTool[] = [];
  for (const tool of tools) {
    if (tool.source === "subagent") {
      removed.push({ name: tool.name, reason: "subagents are offered through the task tool's description, not as tools" });
    } else if (tool.source === "skill") {
      removed.push(
        skillDenials.get(tool.name) ??
          (skillEntryPoint
            ? { name: tool.name, reason: "listed in the skill tool's description, not offered as a tool of its own" }
            : { name: tool.name, reason: "the skill tool is not offered, so no skill can be loaded" }),
      );
    } else if (tool.name === "task") {
      if (subagents.allowed.length === 0) {
        const why =
          subagents.denied.length > 0
            ? `${agentName}'s permissions deny every subagent (${listNames(subagents.denied)})`
            : "the catalog defines no other subagent";
        removed.push({ name: tool.name, reason: `no subagent to delegate to: ${why}` });
        continue;
      }
      const description = withListing(tool.description, SUBAGENTS_PLACEHOLDER, "Available subagents:", subagents.allowed);
      kept.push({ ...tool, description });
      changed.push({ name: tool.name, reason: `lists the subagents ${agentName} may delegate to: ${listNames(subagents.allowed)}` });
      for (const note of subagents.denied) {
        changed.push({ name: tool.name, reason: `leaves out subagent ${note.name}: ${note.reason}` });
      }
    } else if (tool.name === "skill") {
      if (skills.allowed.length === 0) {
        const why = skills.denied.length > 0 ? `${agentName}'s permissions deny every skill (${listNames(skills.denied)})` : "the catalog offers no skills";
        removed.push({ name: tool.name, reason: `no skill to load: ${why}` });
        continue;
      }
      const description = withListing(tool.description, SKILLS_PLACEHOLDER, "Available skills:", skills.allowed);
      kept.push({ ...tool, description });
      changed.push({ name: tool.name, reason: `lists the skills ${agentName} may load: ${listNames(skills.allowed)}` });
    } else {
      kept.push(tool);
    }
  }
  return { tools: kept, removed, changed };
}
