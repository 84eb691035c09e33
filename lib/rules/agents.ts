import { z } from "zod";
import { safeName, safeText } from "../safe-text";
import { compileNamePattern } from "./patterns";

export const PERMISSION_ACTIONS = ["allow", "ask", "deny"] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

/**
 * One permission rule. `pattern` is a name pattern (see patterns.ts) matched against a tool
 * name, `task:<subagent>` for delegation, or `skill:<name>` for a skill.
 */
export interface PermissionRule {
  pattern: string;
  action: PermissionAction;
}

export const AGENT_MODES = ["primary", "subagent", "all"] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

export interface Agent {
  name: string;
  /** `primary` agents talk to the user, `subagent`s are delegated to via `task`, `all` are both. */
  mode: AgentMode;
  description: string;
  permissions: PermissionRule[];
  /** Always handed to the model when they survive the pipeline; the rest are preselected per turn. */
  baseTools: string[];
}

export const AGENT_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const PermissionRuleSchema = z.object({
  pattern: safeName(),
  action: z.enum(PERMISSION_ACTIONS),
}) satisfies z.ZodType<PermissionRule>;

export const AgentSchema = z.object({
  name: safeName(),
  mode: z.enum(AGENT_MODES),
  description: safeText().max(2_000),
  permissions: z.array(PermissionRuleSchema).max(500),
  baseTools: z.array(safeName()).max(200),
}) satisfies z.ZodType<Agent>;

/** The deciding rule and its position; only the default allow has none. */
export type PermissionDecision = { action: "allow"; rule?: undefined; index?: undefined } | { action: PermissionAction; rule: PermissionRule; index: number };

/** Evaluates keys against an agent's rules, compiling the patterns once. */
export type PermissionEvaluator = (key: string) => PermissionDecision;

/** Rules apply in order and the last matching one wins; with none matching the key is allowed. */
export function compilePermissions(rules: PermissionRule[]): PermissionEvaluator {
  const matchers = rules.map((rule) => compileNamePattern(rule.pattern));
  return (key) => {
    for (let index = rules.length - 1; index >= 0; index--) {
      if (matchers[index](key)) return { action: rules[index].action, rule: rules[index], index };
    }
    return { action: "allow" };
  };
}

const READ_ONLY_DENIALS: PermissionRule[] = ["edit", "write", "apply_patch", "bash"].map((pattern) => ({
  pattern,
  action: "deny",
}));

export const DEFAULT_AGENTS: Agent[] = [
  {
    name: "build",
    mode: "primary",
    description: "The default agent: reads, changes and runs code to get the task done.",
    permissions: [{ pattern: "*", action: "allow" }],
    baseTools: ["read", "grep", "glob", "bash", "edit", "write", "apply_patch", "todowrite", "todoread", "task", "skill"],
  },
  {
    name: "plan",
    mode: "primary",
    description: "Plans changes without making them: reads and analyses the code, edits nothing.",
    permissions: [{ pattern: "*", action: "allow" }, ...READ_ONLY_DENIALS],
    baseTools: ["read", "grep", "glob", "todowrite", "todoread", "task", "plan", "skill"],
  },
  {
    name: "general",
    mode: "subagent",
    description:
      "General-purpose agent for researching complex questions and carrying out multi-step tasks; use it to search for code or information when you are not confident the first few tries will find it.",
    // Read-only, and no further delegation so that task chains cannot recurse.
    permissions: [{ pattern: "*", action: "allow" }, ...READ_ONLY_DENIALS, { pattern: "task", action: "deny" }],
    baseTools: ["read", "grep", "glob", "webfetch", "todowrite", "todoread"],
  },
  {
    name: "explore",
    mode: "subagent",
    description: "Fast agent for exploring a codebase: finds files by pattern, searches code for keywords and answers questions about how the code works.",
    permissions: [{ pattern: "*", action: "allow" }, ...READ_ONLY_DENIALS, { pattern: "task", action: "deny" }, { pattern: "todowrite", action: "deny" }],
    baseTools: ["read", "grep", "glob"],
  },
];
