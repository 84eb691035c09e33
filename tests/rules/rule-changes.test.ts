import { describe, expect, it } from "vitest";
import { agentRestorePreview, rulesRestorePreview, toolRestorePreview } from "@/lib/catalogs/restore-preview";
import { DEFAULT_MODEL_RULES } from "@/lib/rules/model-rules";
import { ruleChanges } from "@/lib/rules/rule-changes";

describe("a change of the rules, rule by rule and by name", () => {
  it("names a changed model rule by its name, never its id, with what each list gained and lost", () => {
    const after = DEFAULT_MODEL_RULES.map((rule) =>
      rule.id === "patch-preferring-gpt" ? { ...rule, disable: ["edit"], exclude: [...rule.exclude, "gpt-5-mini"] } : rule,
    );
    expect(ruleChanges("modelRules", DEFAULT_MODEL_RULES, after)).toEqual([
      { subject: "model rule “Patch-preferring GPT models”", kind: "changed", details: ["exclude: + gpt-5-mini", "disable: − write"] },
    ]);
  });

  it("says which rules were added, removed or renamed, and when only their order changed", () => {
    const added = { id: "r3", name: "No shell for small models", include: ["mini"], exclude: [], enable: [], disable: ["bash"] };
    expect(ruleChanges("modelRules", DEFAULT_MODEL_RULES, [...DEFAULT_MODEL_RULES, added])).toEqual([
      { subject: "model rule “No shell for small models”", kind: "added", details: ["include: mini", "disable: bash"] },
    ]);
    expect(ruleChanges("modelRules", DEFAULT_MODEL_RULES, DEFAULT_MODEL_RULES.slice(1))[0]).toMatchObject({
      subject: "model rule “Edit-based editing (every model)”",
      kind: "removed",
    });
    const renamed = [{ ...DEFAULT_MODEL_RULES[0], name: "Edits" }, DEFAULT_MODEL_RULES[1]];
    expect(ruleChanges("modelRules", DEFAULT_MODEL_RULES, renamed)[0].details).toEqual(["name: “Edit-based editing (every model)” → “Edits”"]);
    expect(ruleChanges("modelRules", DEFAULT_MODEL_RULES, [...DEFAULT_MODEL_RULES].reverse())).toEqual([
      { subject: "Model rules", kind: "changed", details: ["order changed"] },
    ]);
  });

  it("names providers by name, overrides by their tool and models, and a setting by its title", () => {
    const providers = [{ id: "openai", name: "OpenAI", webSearch: true }];
    expect(ruleChanges("providers", providers, [{ ...providers[0], webSearch: false }])).toEqual([
      { subject: "provider “OpenAI”", kind: "changed", details: ["webSearch: true → false"] },
    ]);
    expect(ruleChanges("overrides", [], [{ tool: "bash", models: ["gpt-5"], summary: "Run a command." }])).toEqual([
      { subject: "override of bash for gpt-5", kind: "added", details: ["models: gpt-5", "summary: “Run a command.”"] },
    ]);
    expect(ruleChanges("searchServiceConfigured", false, true)).toEqual([{ subject: "Web search service", kind: "changed", details: ["false → true"] }]);
  });
});

describe("what a restore will change, said before it is done", () => {
  const tool = {
    name: "send_mail",
    source: "custom",
    summary: "Send a mail.",
    description: "Sends one mail.",
    inputSchema: { type: "object" },
    tags: [],
    enabled: true,
  };

  it("names a rename back and every field it changes", () => {
    const restored = { ...tool, name: "sendMail", description: "Sends a mail to one address.", enabled: false, tags: ["mail"] };
    expect(toolRestorePreview(tool, restored)).toEqual({
      changes: ["renames send_mail back to sendMail", "changes its description", "sets its tags to mail (now none)", "disables it"],
      notes: [],
    });
    expect(toolRestorePreview(undefined, restored).changes).toEqual(["creates the custom tool sendMail again"]);
    expect(toolRestorePreview(tool, tool)).toEqual({ changes: [], notes: [] });
  });

  it("says that a source's tool keeps its server's definition, and that a held-back change waits for review", () => {
    const mcp = { ...tool, name: "notes__get", source: "mcp", heldBack: "changed" };
    const preview = toolRestorePreview(mcp, { ...mcp, description: "The approved text." });
    expect(preview.changes).toEqual([]);
    expect(preview.notes.join(" ")).toMatch(/comes from its mcp source: a restore brings back only its tags/);
    expect(preview.notes.join(" ")).toMatch(/held back for review: approve or reject it/);
  });

  it("names an agent renamed back, and a rule by its name", () => {
    const agent = { name: "reviewer", mode: "subagent", description: "Reviews.", permissions: [], baseTools: ["read"] };
    expect(agentRestorePreview(agent, { ...agent, name: "critic", baseTools: [] }, "reviewer").changes).toEqual([
      "renames the agent reviewer back to critic",
      "changes its base tools",
    ]);
    const changed = DEFAULT_MODEL_RULES.map((rule) => ({ ...rule, disable: [] }));
    expect(rulesRestorePreview("modelRules", changed, DEFAULT_MODEL_RULES).changes).toEqual([
      "changes model rule “Edit-based editing (every model)” (disable: + apply_patch)",
      "changes model rule “Patch-preferring GPT models” (disable: + edit, + write)",
    ]);
  });
});
