import { describe, expect, it } from "vitest";
import { createPipelineContext } from "../../lib/pipeline/context";
import { runPipeline } from "../../lib/pipeline/run";
import { STAGE_NAMES } from "../../lib/pipeline/types";
import { ToolshedError } from "../../lib/errors";
import { builtinSet, context, makeTool, names } from "./fixtures";

describe("runPipeline", () => {
  it("gives the build agent on claude the edit-style core set", () => {
    const { tools } = runPipeline(builtinSet(), context());
    expect(names(tools)).toEqual(["read", "write", "edit", "grep", "glob", "bash", "task", "todowrite", "todoread", "webfetch", "websearch"]);
  });

  it("gives the plan agent on gpt-5 a read-only set with the plan tool", () => {
    const { tools } = runPipeline(builtinSet(), context({ modelId: "gpt-5", agentName: "plan", flags: ["experimental.lsp"] }));
    expect(names(tools)).toEqual(["read", "grep", "glob", "task", "todowrite", "todoread", "webfetch", "websearch", "plan", "lsp"]);
  });

  it("gives the explore subagent no task tool and no editing", () => {
    const { tools } = runPipeline(builtinSet(), context({ modelId: "llama-3.3-70b", agentName: "explore" }));
    expect(names(tools)).toEqual(["read", "grep", "glob", "todoread", "webfetch"]);
  });

  it("keeps the catalog order with mixed sources", () => {
    const catalog = [makeTool("zeta", { source: "mcp" }), ...builtinSet(), makeTool("alpha", { source: "custom" })];
    const { tools } = runPipeline(catalog, context());
    expect(tools[0].name).toBe("zeta");
    expect(tools.at(-1)?.name).toBe("alpha");
  });

  it("records every stage in order, with what each removed and changed", () => {
    const catalog = [...builtinSet(), makeTool("legacy", { enabled: false })];
    const { trace, tools } = runPipeline(catalog, context({ modelId: "gpt-5" }));
    expect(trace.map((entry) => entry.stage)).toEqual([...STAGE_NAMES]);
    const removedAt = Object.fromEntries(trace.map((entry) => [entry.stage, names(entry.removed)]));
    expect(removedAt).toEqual({
      aggregate: ["legacy"],
      "model-rules": ["write", "edit"],
      "provider-capabilities": [],
      conditional: ["plan", "lsp"],
      permissions: [],
      delegation: ["skill"],
      "definition-overrides": [],
      final: [],
    });
    expect(trace.find((entry) => entry.stage === "delegation")?.changed.map((note) => note.name)).toEqual(["task"]);
    expect(trace.at(-1)?.remaining).toBe(tools.length);
    const removedTotal = trace.reduce((sum, entry) => sum + entry.removed.length, 0);
    expect(removedTotal + tools.length).toBe(catalog.length);
  });

  it("hands over only the definition, the source, the tags and the approval flag", () => {
    const { tools } = runPipeline([makeTool("read", { tags: ["files"] })], context());
    expect(tools).toEqual([
      {
        name: "read",
        summary: "read summary",
        description: "read description",
        inputSchema: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
        source: "builtin",
        tags: ["files"],
        needsApproval: false,
      },
    ]);
  });
});

describe("createPipelineContext", () => {
  it("resolves the provider and defaults the mode to the agent", () => {
    const ctx = createPipelineContext({ catalogId: "c", modelId: "gemini-2.5-pro", agentName: "plan" });
    expect(ctx.provider).toBe("google");
    expect(ctx.mode).toBe("plan");
    expect(ctx.agent.name).toBe("plan");
  });

  it("rejects an unknown agent", () => {
    expect(() => createPipelineContext({ catalogId: "c", modelId: "gpt-5", agentName: "ghost" })).toThrow(ToolshedError);
  });
});
