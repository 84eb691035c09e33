import { describe, expect, it } from "vitest";
import { DEFAULT_AGENTS, type Agent } from "@/lib/rules/agents";
import { DEFAULT_RULES } from "@/lib/rules/catalog-rules";
import { renameToolInAgent, renameToolInRules } from "@/lib/rules/rename-tool";

const agent: Agent = {
  ...DEFAULT_AGENTS[3],
  permissions: [
    { pattern: "weather", action: "ask" },
    { pattern: "weather*", action: "deny" },
    { pattern: "task:weather", action: "deny" },
  ],
  baseTools: ["read", "weather", "forecast"],
};

describe("carrying a tool's rename", () => {
  it("renames base tools once and exact permission patterns only", () => {
    expect(renameToolInAgent(agent, "weather", "forecast")).toEqual({
      ...agent,
      permissions: [{ pattern: "forecast", action: "ask" }, agent.permissions[1], agent.permissions[2]],
      baseTools: ["read", "forecast"],
    });
  });

  it("leaves agents and rules that do not name the tool as they are", () => {
    expect(renameToolInAgent(DEFAULT_AGENTS[0], "weather", "forecast")).toEqual(DEFAULT_AGENTS[0]);
    expect(renameToolInRules(DEFAULT_RULES, "weather", "forecast")).toEqual({ modelRules: DEFAULT_RULES.modelRules, overrides: DEFAULT_RULES.overrides });
  });
});
