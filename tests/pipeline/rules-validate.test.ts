import { describe, expect, it } from "vitest";
import { AgentSchema, DEFAULT_AGENTS } from "../../lib/rules/agents";
import { DEFAULT_MODEL_RULES, ModelRuleSchema } from "../../lib/rules/model-rules";
import { PATTERN_MAX } from "../../lib/rules/patterns";
import { validateAgents, validateModelRules, validateOverrides } from "../../lib/rules/validate";

const CATALOG = new Set([
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
]);

describe("the shipped defaults", () => {
  it("are valid against the built-in catalog and their schemas", () => {
    expect(validateModelRules(DEFAULT_MODEL_RULES, CATALOG)).toEqual([]);
    expect(validateAgents(DEFAULT_AGENTS, CATALOG)).toEqual([]);
    for (const rule of DEFAULT_MODEL_RULES) expect(ModelRuleSchema.safeParse(rule).success).toBe(true);
    for (const agent of DEFAULT_AGENTS) expect(AgentSchema.safeParse(agent).success).toBe(true);
  });
});

describe("validateModelRules", () => {
  it("reports bad patterns, unknown tools, contradictions and duplicate ids by field", () => {
    const errors = validateModelRules(
      [
        { id: "a", name: "A", include: ["gpt 5", ""], exclude: ["x".repeat(201)], enable: ["edit", "edti"], disable: ["edit"] },
        { id: "a", name: " ", include: [], exclude: [], enable: [], disable: [] },
      ],
      CATALOG,
    );
    expect(errors.map((error) => error.field)).toEqual([
      "modelRules.0.include.0",
      "modelRules.0.include.1",
      "modelRules.0.exclude.0",
      "modelRules.0.enable.1",
      "modelRules.0.enable.0",
      "modelRules.1.id",
      "modelRules.1.name",
      "modelRules.1.include",
    ]);
    expect(errors[3].message).toBe('There is no tool named "edti" in this catalog.');
  });
});

describe("validateAgents", () => {
  it("reports invalid and duplicate names, bad permission patterns and unknown base tools", () => {
    const base = { mode: "primary" as const, description: "", permissions: [], baseTools: [] };
    const errors = validateAgents(
      [
        { ...base, name: "Build" },
        { ...base, name: "review", permissions: [{ pattern: "task:(x)", action: "deny" }], baseTools: ["read", "reed"] },
        { ...base, name: "review" },
        { ...base, name: "-lead" },
      ],
      CATALOG,
    );
    expect(errors.map((error) => error.field)).toEqual([
      "agents.0.name",
      "agents.1.permissions.0.pattern",
      "agents.1.baseTools.1",
      "agents.2.name",
      "agents.3.name",
    ]);
    expect(errors[3].message).toContain("already named");
  });
});

describe("validateOverrides", () => {
  it("reports unknown tools, bad model patterns, empty and overlong overrides", () => {
    const errors = validateOverrides(
      [
        { tool: "bahs", models: ["gpt-5*"], description: "x" },
        { tool: "bash", models: ["gpt 5"], summary: "s" },
        { tool: "bash", models: [] },
        { tool: "bash", models: [], summary: "s".repeat(201) },
      ],
      CATALOG,
    );
    expect(errors.map((error) => error.field)).toEqual(["overrides.0.tool", "overrides.1.models.0", "overrides.2", "overrides.3.summary"]);
  });

  it("checks parameter defaults against the tool's input schema: an unknown parameter or a default its schema refuses is an error naming the tool and field", () => {
    const schema = {
      type: "object" as const,
      properties: { limit: { type: "integer", minimum: 1 }, order: { $ref: "#/$defs/order" } },
      $defs: { order: { enum: ["asc", "desc"] } },
    };
    const schemaOf = (tool: string) => (tool === "bash" ? schema : undefined);
    const errors = validateOverrides(
      [
        { tool: "bash", models: [], defaults: { limit: 20, order: "desc" } },
        { tool: "bash", models: [], defaults: { limt: 20 } },
        { tool: "bash", models: [], defaults: { limit: 0, order: "sideways" } },
      ],
      CATALOG,
      schemaOf,
    );
    expect(errors).toEqual([
      { field: "overrides.1.defaults.limt", message: 'Tool "bash" has no parameter "limt" (its parameters: limit, order).' },
      { field: "overrides.2.defaults.limit", message: 'The default 0 for "limit" of tool "bash" does not match the parameter\'s schema: must be >= 1.' },
      {
        field: "overrides.2.defaults.order",
        message: 'The default "sideways" for "order" of tool "bash" does not match the parameter\'s schema: must be equal to one of the allowed values.',
      },
    ]);
  });

  it("counts a parameter default or an annotation as something an override sets, and skips defaults of a tool whose schema it does not know", () => {
    expect(validateOverrides([{ tool: "bash", models: [], annotations: { readOnlyHint: true } }], CATALOG)).toEqual([]);
    expect(validateOverrides([{ tool: "bash", models: [], defaults: { anything: 1 } }], CATALOG)).toEqual([]);
    expect(validateOverrides([{ tool: "bash", models: [], annotations: {} }], CATALOG).map((error) => error.field)).toEqual(["overrides.0"]);
  });
});

describe("pattern length", () => {
  const long = `${"*a".repeat(PATTERN_MAX / 2)}b`;
  const limit = `Pattern is ${PATTERN_MAX + 1} characters long; the limit is ${PATTERN_MAX}.`;

  it("bounds model-rule, permission and override patterns, naming the field", () => {
    const atLimit = long.slice(1);
    expect(atLimit).toHaveLength(PATTERN_MAX);
    expect(validateModelRules([{ id: "a", name: "A", include: [atLimit], exclude: [long], enable: [], disable: [] }], CATALOG)).toEqual([
      { field: "modelRules.0.exclude.0", message: limit },
    ]);
    const agent = { name: "review", mode: "primary" as const, description: "", baseTools: [] };
    expect(
      validateAgents(
        [
          {
            ...agent,
            permissions: [
              { pattern: atLimit, action: "allow" },
              { pattern: long, action: "deny" },
            ],
          },
        ],
        CATALOG,
      ),
    ).toEqual([{ field: "agents.0.permissions.1.pattern", message: limit }]);
    expect(validateOverrides([{ tool: "bash", models: ["gpt-5*", long], summary: "s" }], CATALOG)).toEqual([{ field: "overrides.0.models.1", message: limit }]);
  });
});
