import { describe, expect, it } from "vitest";
import { agentFromDraft, agentToDraft } from "@/components/agent-draft";
import { formProblems, subPath } from "@/components/form-problems";
import { defaultsDraftProblem, emptyOverrideDraft, overrideFromDraft, overrideToDraft, ruleFromDraft, ruleToDraft } from "@/components/rule-drafts";
import { byField, problemPath, readToolForm, toolFormValues } from "@/components/tool-draft";

describe("formProblems", () => {
  it("reads React Hook Form's nested errors back into the server's problems, rows and list errors included", () => {
    const errors = {
      name: { type: "too_small", message: "Too short.", ref: { name: "name" } },
      modelRules: [undefined, { include: [{ type: "custom", message: "Not a pattern." }] }],
      permissions: { root: { type: "too_big", message: "Too many rules." } },
      // Marked as having problems below it, with none of its own.
      inputSchema: { type: "below", "%type": { type: "custom", message: "Not an object." } },
    };
    expect(formProblems(errors)).toEqual([
      { field: "name", message: "Too short." },
      { field: "modelRules.1.include.0", message: "Not a pattern." },
      { field: "permissions", message: "Too many rules." },
      { field: "inputSchema.type", message: "Not an object." },
    ]);
  });

  it("gives every message an error collected, and keeps a sub-path whole whatever its parts are called", () => {
    const parts = ["properties", "type", "a.b[c]'d\"", "", "0", "%7"];
    const [first, ...rest] = subPath(parts);
    // Nested as React Hook Form files "inputSchema.<sub-path>": it splits at "." and "[", and drops quotes and "]".
    expect(subPath(parts).join(".").split(/\.|\[/)).toHaveLength(parts.length);
    const nested = rest.reduceRight<object>((inner, part) => ({ [part]: inner }), {
      type: "custom",
      message: "first",
      types: { custom: ["first", "second"], server: "third" },
    });
    expect(formProblems({ inputSchema: { [first]: nested } })).toEqual(
      ["first", "second", "third"].map((message) => ({ field: `inputSchema.${parts.join(".")}`, message })),
    );
  });
});

describe("the editors' drafts", () => {
  it("read a model rule's and an override's typed lists, and give back what they were made from", () => {
    const rule = { id: "r1", name: "GPT", include: ["gpt-", "o*"], exclude: [], enable: ["apply_patch"], disable: ["edit", "write"] };
    expect(ruleFromDraft(ruleToDraft(rule))).toEqual(rule);
    expect(ruleFromDraft({ id: "r2", name: "  Spaced ", include: " a , ,b ", exclude: "", enable: "", disable: "" })).toEqual({
      id: "r2",
      name: "Spaced",
      include: ["a", "b"],
      exclude: [],
      enable: [],
      disable: [],
    });
    const override = { tool: "bash", models: ["gpt-"], summary: "Run it." };
    expect(overrideFromDraft(overrideToDraft(override))).toEqual(override);
    expect(overrideFromDraft({ ...emptyOverrideDraft(" bash "), summary: "  ", description: "  Indented.\n" })).toEqual({
      tool: "bash",
      models: [],
      description: "  Indented.\n",
    });
  });

  it("read an override's parameter defaults as JSON and its annotations, each hint left to its source unless set", () => {
    const override = {
      tool: "search",
      models: [],
      defaults: { limit: 25, order: "desc" },
      annotations: { title: "Note search", readOnlyHint: true, openWorldHint: false },
    };
    const draft = overrideToDraft(override);
    expect(draft).toMatchObject({ title: "Note search", readOnlyHint: "true", destructiveHint: "", idempotentHint: "", openWorldHint: "false" });
    expect(overrideFromDraft(draft)).toEqual(override);
    expect(overrideFromDraft({ ...emptyOverrideDraft("search"), defaults: "  ", title: " ", destructiveHint: "true" })).toEqual({
      tool: "search",
      models: [],
      annotations: { destructiveHint: true },
    });
    expect(defaultsDraftProblem("")).toBeUndefined();
    expect(defaultsDraftProblem('{"limit": 25}')).toBeUndefined();
    for (const text of ["[1]", "25", "{limit: 25}"]) expect(defaultsDraftProblem(text)).toContain("JSON object");
  });

  it("read an agent's base tools and trim its name and description", () => {
    const agent = {
      name: "build",
      mode: "primary" as const,
      description: "Builds.",
      permissions: [{ pattern: "*", action: "allow" as const }],
      baseTools: ["read", "bash"],
    };
    expect(agentFromDraft(agentToDraft(agent))).toEqual(agent);
    expect(agentFromDraft({ ...agentToDraft(agent), name: " build ", description: " Builds. ", baseTools: "read,, bash " })).toEqual(agent);
  });

  it("read a tool's form into its draft, with a schema that is not JSON a problem of its own", () => {
    const values = { ...toolFormValues(), name: "notes_get", summary: " Read a note. ", tags: "notes, , read" };
    expect(readToolForm(values)).toEqual({
      draft: {
        name: "notes_get",
        summary: "Read a note.",
        description: "",
        tags: ["notes", "read"],
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
      },
      problems: [],
    });
    const { problems } = readToolForm({ ...values, name: "not a name", inputSchema: "{" });
    expect(problems.map((problem) => problem.field)).toEqual(["name", "inputSchema"]);
    expect(problems[1].message).toMatch(/^Not valid JSON: /);
    expect(byField(readToolForm({ ...values, inputSchema: '{"type": "array"}' }).problems)).toEqual({
      inputSchema: [{ field: "inputSchema.type", message: 'The root of an input schema must have type "object".' }],
    });
  });

  it("file a tool's problem under its form field, and none the form has not", () => {
    expect(problemPath("inputSchema.type")).toEqual(["inputSchema", ...subPath(["type"])]);
    expect(problemPath("summary")).toEqual(["summary"]);
    expect(problemPath("enabled")).toBeUndefined();
  });
});
