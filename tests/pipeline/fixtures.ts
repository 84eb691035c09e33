import { createPipelineContext, type ContextInput } from "../../lib/pipeline/context";
import type { PipelineTool } from "../../lib/pipeline/types";

/** A tool as the registry would hand it over; tests override only what they are about. */
export function makeTool(name: string, overrides: Partial<PipelineTool> = {}): PipelineTool {
  return {
    name,
    summary: `${name} summary`,
    description: `${name} description`,
    inputSchema: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
    source: "builtin",
    enabled: true,
    tags: [],
    registered: true,
    requires: {},
    ...overrides,
  };
}

/** The built-in set with the requirements the product ships them with. */
export function builtinSet(): PipelineTool[] {
  return [
    makeTool("read"),
    makeTool("write"),
    makeTool("edit"),
    makeTool("grep"),
    makeTool("glob"),
    makeTool("bash"),
    makeTool("task", { description: "Delegates work.\n\nAvailable subagents:\n{{subagents}}" }),
    makeTool("todowrite"),
    makeTool("todoread"),
    makeTool("webfetch"),
    makeTool("websearch", { requires: { capability: "web_search" } }),
    makeTool("skill", { description: "Loads a skill.\n\nAvailable skills:\n{{skills}}" }),
    makeTool("apply_patch"),
    makeTool("plan", { requires: { mode: "plan" } }),
    makeTool("lsp", { requires: { flag: "experimental.lsp" } }),
  ];
}

export const context = (input: Partial<ContextInput> = {}) => createPipelineContext({ catalogId: "test", modelId: "claude-sonnet-4-5", ...input });

export const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);
