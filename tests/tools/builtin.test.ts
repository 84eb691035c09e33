import { describe, expect, it } from "vitest";
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS, SKILLS_PLACEHOLDER, SUBAGENTS_PLACEHOLDER, isBuiltinToolName } from "../../lib/tools/builtin";
import { SUMMARY_MAX } from "../../lib/tools/types";
import { validateToolDraft, validateTags } from "../../lib/tools/validate";

const EXPECTED_ORDER = [
  "read",
  "write",
  "edit",
  "grep",
  "glob",
  "bash",
  "task",
  "todowrite",
  "todoread",
  "webfetch",
  "websearch",
  "skill",
  "apply_patch",
  "plan",
  "lsp",
];

const byName = (name: string) => {
  const tool = BUILTIN_TOOLS.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no built-in tool ${name}`);
  return tool;
};

describe("built-in tools", () => {
  it("are exactly the 15 tools of the spec, in a stable order", () => {
    expect(BUILTIN_TOOLS.map((tool) => tool.name)).toEqual(EXPECTED_ORDER);
    expect(BUILTIN_TOOL_NAMES).toEqual(EXPECTED_ORDER);
  });

  it.each(BUILTIN_TOOLS.map((tool) => [tool.name, tool] as const))("%s passes validation", (_name, tool) => {
    expect(validateToolDraft({ ...tool, source: "builtin" })).toEqual([]);
  });

  it.each(BUILTIN_TOOLS.map((tool) => [tool.name, tool] as const))(
    "%s has a one-sentence summary, a substantial description and documented parameters",
    (_name, tool) => {
      expect(tool.summary.length).toBeLessThanOrEqual(SUMMARY_MAX);
      expect(tool.summary).toMatch(/^[A-Z][^\n]*\.$/);
      expect(tool.summary.slice(0, -1)).not.toMatch(/[.!?] [A-Z]/);
      expect(tool.description.length).toBeGreaterThan(300);
      expect(tool.inputSchema.additionalProperties).toBe(false);
      for (const [property, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${property}`).toBeTruthy();
      }
      expect(tool.tags.length).toBeGreaterThan(0);
      expect(validateTags(tool.tags)).toEqual([]);
    },
  );

  it("gives the big tools several paragraphs of guidance", () => {
    for (const name of ["bash", "edit", "task", "apply_patch", "grep"]) {
      expect(byName(name).description.split("\n\n").length, name).toBeGreaterThanOrEqual(4);
    }
  });

  it("offers conditional tools only under their requirement", () => {
    expect(byName("plan").requires).toEqual({ mode: "plan" });
    expect(byName("lsp").requires).toEqual({ flag: "experimental.lsp" });
    expect(byName("websearch").requires).toEqual({ capability: "web_search" });
    const unconditional = BUILTIN_TOOLS.filter((tool) => !["plan", "lsp", "websearch"].includes(tool.name));
    for (const tool of unconditional) expect(tool.requires, tool.name).toEqual({});
  });

  it("ends the task description with the subagents placeholder, once", () => {
    const { description } = byName("task");
    expect(description.endsWith(SUBAGENTS_PLACEHOLDER)).toBe(true);
    expect(description.split(SUBAGENTS_PLACEHOLDER)).toHaveLength(2);
  });

  it("ends the skill description with the skills placeholder, once", () => {
    const { description } = byName("skill");
    expect(description.endsWith(SKILLS_PLACEHOLDER)).toBe(true);
    expect(description.split(SKILLS_PLACEHOLDER)).toHaveLength(2);
  });

  it("uses placeholders no other description contains", () => {
    expect(SUBAGENTS_PLACEHOLDER).not.toBe(SKILLS_PLACEHOLDER);
    for (const tool of BUILTIN_TOOLS) {
      if (tool.name !== "task") expect(tool.description, tool.name).not.toContain(SUBAGENTS_PLACEHOLDER);
      if (tool.name !== "skill") expect(tool.description, tool.name).not.toContain(SKILLS_PLACEHOLDER);
    }
  });

  it("recognizes built-in names exactly", () => {
    expect(isBuiltinToolName("apply_patch")).toBe(true);
    expect(isBuiltinToolName("lsp")).toBe(true);
    expect(isBuiltinToolName("Read")).toBe(false);
    expect(isBuiltinToolName("github_create_issue")).toBe(false);
    expect(isBuiltinToolName("")).toBe(false);
  });

  it("derives the task tool's required inputs from its zod shape", () => {
    expect(byName("task").inputSchema.required).toEqual(["description", "prompt", "subagentType"]);
  });
});
