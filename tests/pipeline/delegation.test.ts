import { describe, expect, it } from "vitest";
import { applyDelegation } from "../../lib/pipeline/delegation";
import { DEFAULT_AGENTS, type Agent, type PermissionRule } from "../../lib/rules/agents";
import { context, makeTool, names } from "./fixtures";

const task = () => makeTool("task", { description: "Delegates work.\n\nAvailable subagents:\n{{subagents}}" });
const skill = () => makeTool("skill", { description: "Loads a skill.\n\nAvailable skills:\n{{skills}}" });

function agent(name: string, mode: Agent["mode"], permissions: PermissionRule[] = []): Agent {
  return { name, mode, description: `${name} does ${name} things`, permissions, baseTools: [] };
}

describe("subagent descriptions", () => {
  it("lists every other subagent the agent may delegate to, in the placeholder", () => {
    const result = applyDelegation([makeTool("read"), task()], context());
    const description = result.tools[1].description;
    expect(description).toContain(`- general: ${DEFAULT_AGENTS[2].description}`);
    expect(description).toContain(`- explore: ${DEFAULT_AGENTS[3].description}`);
    expect(description).not.toContain("{{subagents}}");
    expect(description).not.toContain("- plan:");
    expect(result.changed).toEqual([{ name: "task", reason: "lists the subagents build may delegate to: general, explore" }]);
  });

  it("appends the listing when the description has no placeholder", () => {
    const result = applyDelegation([makeTool("task", { description: "Delegates." })], context());
    expect(result.tools[0].description).toMatch(/^Delegates\.\n\nAvailable subagents:\n- general: .*\n- explore: /);
  });

  it("leaves out subagents denied by task:<name>, the current agent, and primary agents", () => {
    const agents = [
      agent("lead", "primary", [
        { pattern: "task:*", action: "deny" },
        { pattern: "task:review*", action: "allow" },
      ]),
      agent("reviewer", "subagent"),
      agent("researcher", "subagent"),
      agent("both", "all"),
      agent("other-primary", "primary"),
    ];
    const result = applyDelegation([task()], context({ agents, agentName: "lead" }));
    expect(result.tools[0].description).toBe("Delegates work.\n\nAvailable subagents:\n- reviewer: reviewer does reviewer things");
    expect(result.changed.map((note) => note.reason)).toContain(
      'leaves out subagent researcher: agent "lead" denies task:researcher (permission rule 1: "task:*" → deny)',
    );

    const asBoth = applyDelegation([task()], context({ agents, agentName: "both" }));
    expect(asBoth.tools[0].description).not.toContain("- both:");
    expect(asBoth.tools[0].description).toContain("- researcher:");
  });

  it("removes task when no subagent is left", () => {
    const agents = [agent("solo", "primary", [{ pattern: "task:*", action: "deny" }]), agent("helper", "subagent")];
    const denied = applyDelegation([makeTool("read"), task()], context({ agents, agentName: "solo" }));
    expect(names(denied.tools)).toEqual(["read"]);
    expect(denied.removed).toEqual([{ name: "task", reason: "no subagent to delegate to: solo's permissions deny every subagent (helper)" }]);

    const none = applyDelegation([task()], context({ agents: [agent("solo", "primary")], agentName: "solo" }));
    expect(none.removed).toEqual([{ name: "task", reason: "no subagent to delegate to: the catalog defines no other subagent" }]);
  });

  it("never offers subagent-source tools on their own", () => {
    const result = applyDelegation([makeTool("reviewer", { source: "subagent" }), task()], context());
    expect(names(result.tools)).toEqual(["task"]);
    expect(result.removed[0].name).toBe("reviewer");
  });
});

describe("skill descriptions", () => {
  const pdf = () => makeTool("pdf", { source: "skill", description: "Fill and read PDF forms." });
  const deploy = () => makeTool("deploy", { source: "skill", description: "Deploy to staging." });

  it("folds allowed skills into the skill tool and removes them as separate tools", () => {
    const result = applyDelegation([makeTool("read"), pdf(), skill(), deploy()], context());
    expect(names(result.tools)).toEqual(["read", "skill"]);
    expect(result.tools[1].description).toBe("Loads a skill.\n\nAvailable skills:\n- pdf: Fill and read PDF forms.\n- deploy: Deploy to staging.");
    expect(result.removed).toEqual([
      { name: "pdf", reason: "listed in the skill tool's description, not offered as a tool of its own" },
      { name: "deploy", reason: "listed in the skill tool's description, not offered as a tool of its own" },
    ]);
  });

  it("checks skill:<name> permissions", () => {
    const agents = [agent("careful", "primary", [{ pattern: "skill:deploy", action: "deny" }])];
    const result = applyDelegation([pdf(), skill(), deploy()], context({ agents, agentName: "careful" }));
    expect(result.tools[0].description).toContain("- pdf:");
    expect(result.tools[0].description).not.toContain("deploy");
    expect(result.removed.find((note) => note.name === "deploy")?.reason).toBe(
      'agent "careful" denies skill:deploy (permission rule 1: "skill:deploy" → deny)',
    );
  });

  it("removes skill when there is nothing to load, and skills when there is no skill tool", () => {
    expect(applyDelegation([skill()], context()).removed).toEqual([{ name: "skill", reason: "no skill to load: the catalog offers no skills" }]);
    const withoutEntryPoint = applyDelegation([pdf()], context());
    expect(withoutEntryPoint.tools).toEqual([]);
    expect(withoutEntryPoint.removed[0].reason).toBe("the skill tool is not offered, so no skill can be loaded");
  });
});
