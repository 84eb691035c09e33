import { isDeepStrictEqual } from "node:util";
import { ToolshedError } from "../errors";
import type { Agent } from "../rules/agents";
import type { CatalogRules } from "../rules/catalog-rules";
import { validateAgents, validateModelRules, validateOverrides } from "../rules/validate";
import type { McpServerConfig } from "../sources/mcp/config";
import type { InputSchema } from "../tools/types";
import type { FieldError } from "../tools/validate";
import type { CatalogCode, CatalogContents, CodeTool } from "./catalog-code";
import { maskReferences } from "./secret-references";

/**
 * What applying a catalog file does to a catalog, decided from the file and the catalog as it is:
 * db/queries/catalog-apply.ts reads the catalog, calls planApply and writes what it returns, in one
 * transaction. Each thing is named by its section and name: `tools/lookup_order`, `agents/build`,
 * `rules/modelRules`, `mcpServers/github`.
 */

export interface ApplySummary {
  created: string[];
  changed: { name: string; fields: string[] }[];
  unchanged: number;
  deleted: string[];
  /** A source's tools the file sets state on that this catalog does not have (yet): an MCP server's before its first sync, a plugin not loaded here. */
  pending: { name: string; reason: string }[];
}

type CustomCodeTool = Extract<CodeTool, { source: "custom" }>;
/** What an apply changes on a tool: the whole definition of a custom one, the state of a source's. */
type ToolChanges = Partial<Omit<CustomCodeTool, "name" | "source">>;

export interface ApplyPlan {
  summary: ApplySummary;
  tools: { create: CustomCodeTool[]; update: { name: string; changes: ToolChanges }[]; delete: string[] };
  agents: { create: Agent[]; update: Agent[]; delete: string[] };
  /** The parts of the rules to replace. */
  rules: Partial<CatalogRules>;
  /** Servers to add, or whose configuration to replace (their tools stay, the next sync redefines them), as the file has them (secrets still references); and to delete. */
  mcpServers: { create: McpServerConfig[]; replace: McpServerConfig[]; delete: string[] };
}

const TOOL_FIELDS = ["summary", "description", "inputSchema", "enabled", "tags"] as const;
const AGENT_FIELDS = ["mode", "description", "permissions", "baseTools"] as const;

const same = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));

function differing<T extends object>(before: T, after: T, fields: readonly (keyof T)[]): (keyof T)[] {
  return fields.filter((field) => after[field] !== undefined && !same(before[field], after[field]));
}

/** The entries of a rules list that differ (by their key: a rule's or provider's id, an override's tool), or "order" when only their order does. */
function listChanges<T>(before: T[], after: T[], key: (entry: T) => string): string[] {
  const keyed = (list: T[]) => new Map(list.map((entry) => [key(entry), entry]));
  const [was, now] = [keyed(before), keyed(after)];
  const changed = [...new Set([...was.keys(), ...now.keys()])].filter((name) => !same(was.get(name), now.get(name)));
  if (changed.length > 0) return changed;
  return same(before, after) ? [] : ["order"];
}

function ruleChanges(part: keyof CatalogRules, before: CatalogRules, after: CatalogRules): string[] {
  if (part === "searchServiceConfigured") return before.searchServiceConfigured === after.searchServiceConfigured ? [] : ["value"];
  if (part === "overrides") return listChanges(before.overrides, after.overrides, (override) => `${override.tool} ${override.models.join(",")}`);
  return listChanges<{ id: string }>(before[part], after[part], (entry) => entry.id);
}

function duplicateIds(entries: { id: string }[] | undefined, list: string): FieldError[] {
  const seen = new Set<string>();
  return (entries ?? []).flatMap((entry, index) => {
    if (!seen.has(entry.id)) {
      seen.add(entry.id);
      return [];
    }
    return [{ field: `${list}.${index}.id`, message: `"${entry.id}" is listed twice.` }];
  });
}

/** What the section planners share: the plan they fill, the problems they find, and the tool names the catalog will have. */
interface Planning {
  document: CatalogCode;
  current: CatalogContents;
  prune: boolean;
  plan: ApplyPlan;
  problems: FieldError[];
  toolNames: Set<string>;
}

function changed({ plan }: Planning, name: string, fields: string[]) {
  plan.summary.changed.push({ name, fields });
}

function planTools(planning: Planning): void {
  const { document, current, plan, problems, toolNames } = planning;
  const tools = new Map(current.tools.map((tool) => [tool.name, tool]));
  document.tools?.forEach((tool, index) => {
    const name = `tools/${tool.name}`;
    const existing = tools.get(tool.name);
    if (existing && existing.source !== tool.source) {
      problems.push({ field: `tools.${index}.source`, message: `Here "${tool.name}" is a ${existing.source} tool, not a ${tool.source} one.` });
    } else if (!existing && tool.source === "custom") {
      plan.tools.create.push(tool);
      plan.summary.created.push(name);
      toolNames.add(tool.name);
    } else if (!existing) {
      plan.summary.pending.push({
        name,
        reason: `No ${tool.source} source of this catalog provides it yet: it takes its state from the file once one does, at the next apply.`,
      });
      // Agents and rules may name it already.
      toolNames.add(tool.name);
    } else {
      const fields = differing(existing as ToolChanges, tool as ToolChanges, tool.source === "custom" ? TOOL_FIELDS : (["enabled", "tags"] as const));
      if (fields.length === 0) plan.summary.unchanged++;
      else {
        plan.tools.update.push({ name: tool.name, changes: Object.fromEntries(fields.map((field) => [field, (tool as ToolChanges)[field]])) });
        changed(planning, name, fields);
      }
    }
  });
  if (!planning.prune || !document.tools) return;
  const named = new Set(document.tools.map((tool) => tool.name));
  for (const tool of current.tools) {
    if (tool.source !== "custom" || named.has(tool.name)) continue;
    plan.tools.delete.push(tool.name);
    plan.summary.deleted.push(`tools/${tool.name}`);
    toolNames.delete(tool.name);
  }
}

function planServers(planning: Planning): void {
  const { document, current, plan, toolNames } = planning;
  if (!document.mcpServers) return;
  const servers = new Map(current.mcpServers.map((server) => [server.name, server]));
  for (const server of document.mcpServers) {
    const existing = servers.get(server.name);
    if (!existing) {
      plan.mcpServers.create.push(server);
      plan.summary.created.push(`mcpServers/${server.name}`);
      continue;
    }
    // Compared as stored: secrets masked on both sides (their values are never compared).
    const masked = maskReferences(server) as Record<string, unknown>;
    const stored = existing as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(masked), ...Object.keys(stored)])].filter((field) => !same(masked[field], stored[field]));
    if (fields.length === 0) plan.summary.unchanged++;
    else {
      plan.mcpServers.replace.push(server);
      changed(planning, `mcpServers/${server.name}`, fields);
    }
  }
  if (!planning.prune) return;
  const named = new Set(document.mcpServers.map((server) => server.name));
  for (const server of current.mcpServers) {
    if (named.has(server.name)) continue;
    plan.mcpServers.delete.push(server.name);
    plan.summary.deleted.push(`mcpServers/${server.name}`);
    // Its tools go with it.
    for (const tool of current.tools) if (tool.source === "mcp" && tool.name.startsWith(`${server.name}__`)) toolNames.delete(tool.name);
  }
}

/** Plans the agents and checks them as the catalog will have them: the file's at their paths, any it keeps after them. */
function planAgents(planning: Planning): void {
  const { document, current, plan, problems } = planning;
  let final = current.agents;
  if (document.agents) {
    const agents = new Map(current.agents.map((agent) => [agent.name, agent]));
    for (const agent of document.agents) {
      const existing = agents.get(agent.name);
      const fields = existing ? differing(existing, agent, AGENT_FIELDS) : [];
      if (!existing) {
        plan.agents.create.push(agent);
        plan.summary.created.push(`agents/${agent.name}`);
      } else if (fields.length === 0) plan.summary.unchanged++;
      else {
        plan.agents.update.push(agent);
        changed(planning, `agents/${agent.name}`, fields);
      }
    }
    const named = new Set(document.agents.map((agent) => agent.name));
    const kept = current.agents.filter((agent) => !named.has(agent.name));
    if (planning.prune) {
      for (const agent of kept) {
        plan.agents.delete.push(agent.name);
        plan.summary.deleted.push(`agents/${agent.name}`);
      }
    }
    final = [...document.agents, ...(planning.prune ? [] : kept)];
  }
  const inFile = document.agents?.length ?? 0;
  for (const problem of validateAgents(final, planning.toolNames)) {
    const index = Number(problem.field.split(".")[1]);
    problems.push(index < inFile ? problem : { ...problem, field: `agents (kept: ${final[index].name})` });
  }
}

/** Each tool's input schema as the catalog will have it (a custom tool's the file's), for checking overrides' parameter defaults. */
function inputSchemas({ document, current }: Planning): (tool: string) => InputSchema | undefined {
  const schemas = new Map(current.tools.map((tool) => [tool.name, tool.inputSchema]));
  for (const tool of document.tools ?? []) if (tool.source === "custom") schemas.set(tool.name, tool.inputSchema);
  return (tool) => schemas.get(tool);
}

/** Plans the rules parts the file has, and checks the rules as the catalog will have them. */
function planRules(planning: Planning): void {
  const { document, current, plan, problems } = planning;
  const rules: CatalogRules = { ...current.rules, ...document.rules };
  for (const part of Object.keys(document.rules ?? {}) as (keyof CatalogRules)[]) {
    const fields = ruleChanges(part, current.rules, rules);
    if (fields.length === 0) plan.summary.unchanged++;
    else {
      Object.assign(plan.rules, { [part]: rules[part] });
      changed(planning, `rules/${part}`, fields);
    }
  }
  const inRules = (problem: FieldError) => ({ ...problem, field: `rules.${problem.field}` });
  problems.push(
    ...validateModelRules(rules.modelRules, planning.toolNames).map(inRules),
    ...validateOverrides(rules.overrides, planning.toolNames, inputSchemas(planning)).map(inRules),
    ...duplicateIds(document.rules?.providers, "rules.providers"),
  );
}

/**
 * Works out an apply (see the module comment). Tools: a custom tool of the file is created or
 * replaced; a source's tool takes its `enabled` and `tags`, or is pending while this catalog lacks
 * it; a name that is another source's tool here is an error. Agents and MCP servers are created,
 * changed or left; with `prune`, the catalog's custom tools, agents and servers the file's
 * sections do not name are deleted (a section the file leaves out is left alone). A rules part the
 * file has replaces the catalog's. Agents and rules are checked against the tools the catalog will
 * have. Throws one error listing every problem, each at its path in the file.
 */
export function planApply(document: CatalogCode, current: CatalogContents, options: { prune: boolean }): ApplyPlan {
  const planning: Planning = {
    document,
    current,
    prune: options.prune,
    plan: {
      summary: { created: [], changed: [], unchanged: 0, deleted: [], pending: [] },
      tools: { create: [], update: [], delete: [] },
      agents: { create: [], update: [], delete: [] },
      rules: {},
      mcpServers: { create: [], replace: [], delete: [] },
    },
    problems: [],
    toolNames: new Set(current.tools.map((tool) => tool.name)),
  };
  // Tools and servers first: they decide which tool names agents and rules may use.
  planTools(planning);
  planServers(planning);
  planAgents(planning);
  planRules(planning);
  if (planning.problems.length > 0) throw ToolshedError.fromFieldErrors(planning.problems, "Catalog file rejected");
  return planning.plan;
}

/** Whether an apply changes nothing. */
export const isEmptyPlan = (summary: ApplySummary) => summary.created.length + summary.changed.length + summary.deleted.length === 0;
