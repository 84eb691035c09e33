import { describe, expect, it } from "vitest";
import { applyDefinitionOverrides } from "../../lib/pipeline/definition-overrides";
import { context, makeTool } from "./fixtures";

describe("definition overrides", () => {
  const tools = () => [makeTool("read"), makeTool("bash")];

  it("applies an override only to models matching its patterns", () => {
    const overrides = [{ tool: "bash", models: ["gpt-5*"], description: "Run a shell command (GPT wording)." }];
    const forGpt = applyDefinitionOverrides(tools(), context({ modelId: "gpt-5-mini", overrides }));
    expect(forGpt.tools[1].description).toBe("Run a shell command (GPT wording).");
    expect(forGpt.tools[1].summary).toBe("bash summary");
    expect(forGpt.changed).toEqual([{ name: "bash", reason: 'catalog override for gpt-5-mini, matching "gpt-5*" replaces the description' }]);

    const forClaude = applyDefinitionOverrides(tools(), context({ modelId: "claude-sonnet-4-5", overrides }));
    expect(forClaude.tools[1].description).toBe("bash description");
    expect(forClaude.changed).toEqual([]);
  });

  it("applies unscoped overrides to every model, later ones winning", () => {
    const overrides = [
      { tool: "read", models: [], summary: "first", description: "first" },
      { tool: "read", models: [], summary: "second" },
    ];
    const result = applyDefinitionOverrides(tools(), context({ overrides }));
    expect(result.tools[0]).toMatchObject({ summary: "second", description: "first" });
    expect(result.changed[0].reason).toBe("catalog override for every model replaces the summary and description");
  });

  it("sets parameter defaults and annotations, and skips a default its parameter no longer has or no longer fits, keeping the rest", () => {
    const input = [makeTool("search", { inputSchema: { type: "object", properties: { limit: { type: "integer", default: 10 }, q: { type: "string" } } } })];
    const overrides = [
      {
        tool: "search",
        models: [],
        defaults: { limit: 50, gone: true, q: 3 },
        annotations: { readOnlyHint: true, title: "Search (read-only)" },
      },
    ];
    const result = applyDefinitionOverrides(input, context({ overrides }));
    expect(result.tools[0].inputSchema.properties).toEqual({ limit: { type: "integer", default: 50 }, q: { type: "string" } });
    expect(result.tools[0].annotations).toEqual({ readOnlyHint: true, title: "Search (read-only)" });
    expect(input[0].inputSchema.properties?.limit).toEqual({ type: "integer", default: 10 });
    expect(result.changed.map((note) => note.reason)).toEqual([
      'catalog override for every model: default of gone not applied: Tool "search" has no parameter "gone" (its parameters: limit, q).',
      'catalog override for every model: default of q not applied: The default 3 for "q" of tool "search" does not match the parameter\'s schema: must be string.',
      "catalog override for every model replaces the default of limit and annotations readOnlyHint, title",
    ]);
  });

  it("runs plugin hooks after the overrides, without mutating the input", () => {
    const input = tools();
    const result = applyDefinitionOverrides(
      input,
      context({
        overrides: [{ tool: "read", models: [], description: "override" }],
        definitionHooks: [
          function shout(tool) {
            return tool.name === "read" ? { description: tool.description.toUpperCase() } : undefined;
          },
        ],
      }),
    );
    expect(result.tools[0].description).toBe("OVERRIDE");
    expect(result.changed[1]).toEqual({ name: "read", reason: 'plugin hook "shout" rewrites the description' });
    expect(input[0].description).toBe("read description");
  });

  it("reports a failing hook and keeps the definition", () => {
    const failing = () => {
      throw new Error("boom");
    };
    const result = applyDefinitionOverrides(tools(), context({ definitionHooks: [failing] }));
    expect(result.tools[0].description).toBe("read description");
    expect(result.changed[0].reason).toBe('plugin hook "failing" failed (boom); definition left unchanged');
  });
});

describe("plugin hook output", () => {
  it("ignores values a provider would reject and keeps the usable ones", () => {
    const sloppy = () => ({ description: "Better wording.", inputSchema: { type: "array" } }) as never;
    const result = applyDefinitionOverrides([makeTool("read")], context({ definitionHooks: [sloppy] }));
    expect(result.tools[0].description).toBe("Better wording.");
    expect(result.tools[0].inputSchema.type).toBe("object");
    expect(result.changed).toEqual([
      { name: "read", reason: 'plugin hook "sloppy" returned an unusable inputSchema, ignored' },
      { name: "read", reason: 'plugin hook "sloppy" rewrites the description' },
    ]);
  });

  it("accepts a new object schema", () => {
    const inputSchema = { type: "object" as const, properties: { path: { type: "string" } } };
    const result = applyDefinitionOverrides([makeTool("read")], context({ definitionHooks: [() => ({ inputSchema })] }));
    expect(result.tools[0].inputSchema).toBe(inputSchema);
    expect(result.changed[0].reason).toBe("plugin hook 1 rewrites the inputSchema");
  });
});
