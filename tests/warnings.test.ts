import { describe, expect, it } from "vitest";
import { contextWindowOf, toolCountLimitOf } from "@/lib/models/limits";
import { catalogWarnings, modelRuleWarnings, permissionWarnings, toolListWarnings } from "@/lib/warnings";
import { KNOWN_MODELS } from "@/lib/rules/providers";

describe("model limits", () => {
  it("know the context window of every known model, also behind a provider prefix", () => {
    for (const model of KNOWN_MODELS) expect(contextWindowOf(model.id), model.id).toBeGreaterThan(0);
    expect(contextWindowOf("gpt-4o")).toBe(128_000);
    expect(contextWindowOf("openai/GPT-4o")).toBe(128_000);
    expect(contextWindowOf("my-local-model")).toBeUndefined();
  });

  it("know OpenAI's limit of 128 tools per request, and no limit where none is documented", () => {
    expect(toolCountLimitOf("openai")).toBe(128);
    expect(toolCountLimitOf("anthropic")).toBeUndefined();
    expect(toolCountLimitOf(undefined)).toBeUndefined();
  });
});

describe("the simulator's warnings", () => {
  it("say nothing about a list that fits", () => {
    expect(toolListWarnings({ model: "gpt-5", provider: "openai", toolCount: 40, tokens: 9_000 })).toEqual([]);
  });

  it("flag a list longer than the provider accepts", () => {
    const [warning] = toolListWarnings({ model: "gpt-5", provider: "openai", toolCount: 129, tokens: 20_000 });
    expect(warning.level).toBe("error");
    expect(warning.message).toContain("at most 128 tools");
    expect(warning.message).toContain("129");
  });

  it("flag tool definitions that take a large share of the context window, and those that exceed it", () => {
    const [large] = toolListWarnings({ model: "gpt-4o", provider: "openai", toolCount: 100, tokens: 40_000 });
    expect(large).toMatchObject({ level: "warning" });
    expect(large.message).toContain("31%");
    const [over] = toolListWarnings({ model: "claude-sonnet-4-5", provider: "anthropic", toolCount: 2_000, tokens: 250_000 });
    expect(over).toMatchObject({ level: "error" });
    expect(over.message).toContain("200,000");
  });

  it("say when a model's context window is unknown only if nothing else is known", () => {
    expect(toolListWarnings({ model: "my-local-model", provider: undefined, toolCount: 10, tokens: 5_000 })).toEqual([]);
  });
});

describe("warnings where rules are edited", () => {
  it("flag a model rule that matches none of the known models", () => {
    const rule = { id: "r", name: "Typo", include: ["gtp-5"], exclude: [], enable: [], disable: [] };
    expect(modelRuleWarnings(rule, KNOWN_MODELS)[0].message).toContain("matches none of the");
    expect(modelRuleWarnings({ ...rule, include: ["gpt-5"] }, KNOWN_MODELS)).toEqual([]);
  });

  it("flag permissions naming a tool or a subagent that does not exist, globs that match none, and not skills", () => {
    const rules = [
      { pattern: "*", action: "allow" as const },
      { pattern: "edit", action: "deny" as const },
      { pattern: "web_fetch", action: "deny" as const },
      { pattern: "github_*", action: "ask" as const },
      { pattern: "task:reviewer", action: "deny" as const },
      { pattern: "task:plan", action: "deny" as const },
      { pattern: "skill:pdf", action: "allow" as const },
    ];
    const warnings = permissionWarnings(rules, { toolNames: ["edit", "webfetch"], agentNames: ["build", "plan"] });
    expect(warnings.map((warning) => warning.index)).toEqual([2, 3, 4]);
    expect(warnings[0].message).toContain('no tool named "web_fetch"');
    expect(warnings[1].message).toContain("matches no tool");
    expect(warnings[2].message).toContain('no agent named "reviewer"');
  });

  it("flag a catalog with no enabled tool", () => {
    expect(catalogWarnings({ toolCount: 12, enabledCount: 0 })[0].message).toContain("No tool is enabled");
    expect(catalogWarnings({ toolCount: 0, enabledCount: 0 })[0].message).toContain("no tools yet");
    expect(catalogWarnings({ toolCount: 12, enabledCount: 1 })).toEqual([]);
  });
});
