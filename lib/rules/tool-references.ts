import type { Agent } from "./agents";
import type { CatalogRules } from "./catalog-rules";
import type { DefinitionOverride } from "./overrides";

/**
 * What a catalog refers to tools by: agents' base tools and permission patterns, model rules'
 * enable and disable lists, definition overrides. These follow the tools: a renamed tool's
 * references take its new name, a deleted tool's go with it. Permission patterns count only when
 * they are the name itself: a glob such as "weath*" is about names, not one tool.
 */

/** Tools' new names by their old ones; null for a tool that is gone. */
export type ToolNameChanges = ReadonlyMap<string, string | null>;

export const renamingTool = (from: string, to: string): ToolNameChanges => new Map([[from, to]]);

export const deletingTools = (names: readonly string[]): ToolNameChanges => new Map(names.map((name) => [name, null]));

/** The name after the changes: itself if unchanged, null if the tool is gone. */
const nameAfter = (changes: ToolNameChanges, name: string): string | null => (changes.has(name) ? changes.get(name)! : name);

/** The list with the changes applied, each name once (a new name may be there already, left by a deleted tool); as it was if it names no changed tool. */
function rewritten(names: string[], changes: ToolNameChanges): string[] {
  if (!names.some((name) => changes.has(name))) return names;
  return [...new Set(names.flatMap((name) => nameAfter(changes, name) ?? []))];
}

/** The items whose `key` names a changed tool take its new name; those naming a gone tool are left out. */
function retargeted<K extends string, T extends Record<K, string>>(items: T[], key: K, changes: ToolNameChanges): T[] {
  return items.flatMap((item) => {
    const name = nameAfter(changes, item[key]);
    return name === null ? [] : [name === item[key] ? item : { ...item, [key]: name }];
  });
}

export function rewriteToolReferencesInAgent(agent: Agent, changes: ToolNameChanges): Agent {
  return { ...agent, baseTools: rewritten(agent.baseTools, changes), permissions: retargeted(agent.permissions, "pattern", changes) };
}

export function rewriteToolReferencesInRules(rules: CatalogRules, changes: ToolNameChanges): Pick<CatalogRules, "modelRules" | "overrides"> {
  return {
    modelRules: rules.modelRules.map((rule) => ({ ...rule, enable: rewritten(rule.enable, changes), disable: rewritten(rule.disable, changes) })),
    overrides: retargeted(rules.overrides, "tool", changes),
  };
}

/** What named the changed tools, as an answer lists it: agents by name, model rules by id and name, overrides whole. */
export interface ToolReferences {
  agents: string[];
  modelRules: { id: string; name: string }[];
  overrides: DefinitionOverride[];
}

export function toolReferences(agents: Agent[], rules: CatalogRules, changes: ToolNameChanges): ToolReferences {
  const namesAny = (list: string[]) => list.some((name) => changes.has(name));
  return {
    agents: agents.filter((agent) => namesAny(agent.baseTools) || namesAny(agent.permissions.map((rule) => rule.pattern))).map((agent) => agent.name),
    modelRules: rules.modelRules.filter((rule) => namesAny(rule.enable) || namesAny(rule.disable)).map(({ id, name }) => ({ id, name })),
    overrides: rules.overrides.filter((override) => changes.has(override.tool)),
  };
}
