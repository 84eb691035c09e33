import type { Agent } from "./agents";
import type { CatalogRules } from "./catalog-rules";

/**
 * What a catalog refers to a tool by: agents' base tools and permission patterns, model rules'
 * enable and disable lists, definition overrides. A tool's rename carries these to its new name.
 * Permission patterns are rewritten only when they are the name itself: a glob such as "weath*"
 * is about names, not one tool.
 */

/** The list with `from` as `to`, once (the new name may be there already, left by a deleted tool). */
const renamed = (names: string[], from: string, to: string) =>
  names.includes(from) ? [...new Set(names.map((name) => (name === from ? to : name)))] : names;

export function renameToolInAgent(agent: Agent, from: string, to: string): Agent {
  return {
    ...agent,
    baseTools: renamed(agent.baseTools, from, to),
    permissions: agent.permissions.map((rule) => (rule.pattern === from ? { ...rule, pattern: to } : rule)),
  };
}

export function renameToolInRules(rules: CatalogRules, from: string, to: string): Pick<CatalogRules, "modelRules" | "overrides"> {
  return {
    modelRules: rules.modelRules.map((rule) => ({ ...rule, enable: renamed(rule.enable, from, to), disable: renamed(rule.disable, from, to) })),
    overrides: rules.overrides.map((override) => (override.tool === from ? { ...override, tool: to } : override)),
  };
}
