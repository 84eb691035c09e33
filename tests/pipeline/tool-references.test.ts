import { describe, expect, it } from "vitest";
import { DEFAULT_AGENTS, type Agent } from "@/lib/rules/agents";
import { DEFAULT_RULES, type CatalogRules } from "@/lib/rules/catalog-rules";
import { deletingTools, renamingTool, rewriteToolReferencesInAgent, rewriteToolReferencesInRules, toolReferences } from "@/lib/rules/tool-references";

const agent: Agent = {
  ...DEFAULT_AGENTS[3],
  permissions: [
    { pattern: "weather", action: "ask" },
    { pattern: "weather*", action: "deny" },
    { pattern: "task:weather", action: "deny" },
  ],
  baseTools: ["read", "weather", "forecast"],
};

const rules: CatalogRules = {
  ...DEFAULT_RULES,
  modelRules: [...DEFAULT_RULES.modelRules, { id: "mini", name: "Mini", include: ["*-mini"], exclude: [], enable: ["read"], disable: ["weather", "grep"] }],
  overrides: [
    { tool: "weather", models: [], summary: "Weather." },
    { tool: "read", models: [], summary: "Read." },
  ],
};

describe("carrying a tool's rename", () => {
  it("renames base tools once and exact permission patterns only", () => {
    expect(rewriteToolReferencesInAgent(agent, renamingTool("weather", "forecast"))).toEqual({
      ...agent,
      permissions: [{ pattern: "forecast", action: "ask" }, agent.permissions[1], agent.permissions[2]],
      baseTools: ["read", "forecast"],
    });
  });

  it("leaves agents and rules that do not name the tool as they are", () => {
    expect(rewriteToolReferencesInAgent(DEFAULT_AGENTS[0], renamingTool("weather", "forecast"))).toEqual(DEFAULT_AGENTS[0]);
    expect(rewriteToolReferencesInRules(DEFAULT_RULES, renamingTool("weather", "forecast"))).toEqual({
      modelRules: DEFAULT_RULES.modelRules,
      overrides: DEFAULT_RULES.overrides,
    });
  });
});

describe("a deleted tool's references", () => {
  it("go from base tools, exact permission patterns, model rules and overrides; globs stay", () => {
    expect(rewriteToolReferencesInAgent(agent, deletingTools(["weather"]))).toEqual({
      ...agent,
      permissions: agent.permissions.slice(1),
      baseTools: ["read", "forecast"],
    });
    expect(rewriteToolReferencesInRules(rules, deletingTools(["weather"]))).toEqual({
      modelRules: [...DEFAULT_RULES.modelRules, { ...rules.modelRules.at(-1), disable: ["grep"] }],
      overrides: [rules.overrides[1]],
    });
  });

  it("are listed: the agents, model rules and overrides that name any of the tools", () => {
    expect(toolReferences([agent, DEFAULT_AGENTS[0]], rules, deletingTools(["weather"]))).toEqual({
      agents: [agent.name],
      modelRules: [{ id: "mini", name: "Mini" }],
      overrides: [rules.overrides[0]],
    });
    expect(toolReferences([agent], rules, deletingTools(["nothing"]))).toEqual({ agents: [], modelRules: [], overrides: [] });
  });
});
