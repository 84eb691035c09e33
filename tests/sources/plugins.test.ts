import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPipelineContext } from "../../lib/pipeline/context";
import { runPipeline } from "../../lib/pipeline/run";
import type { DefinitionHook, PipelineTool } from "../../lib/pipeline/types";
import { loadPlugins, pluginDefinitionHooks, type LoadedPlugin } from "../../lib/sources/plugins";
import { BUILTIN_TOOLS } from "../../lib/tools/builtin";
import { validateToolDraft } from "../../lib/tools/validate";

const BROKEN = "fixtures/plugins-broken";

type Definition = Pick<PipelineTool, "name" | "summary" | "description" | "inputSchema" | "tags">;

function registered(tools: readonly Definition[], source: PipelineTool["source"]): PipelineTool[] {
  return tools.map((tool) => ({ ...tool, source, enabled: true, registered: true, requires: {} }));
}

describe("the example plugin", () => {
  it("loads with its tools adapted to the unified format", async () => {
    const { plugins, errors } = await loadPlugins("plugins");
    expect(errors).toEqual([]);
    expect(plugins).toHaveLength(1);
    const [plugin] = plugins;
    expect(plugin).toMatchObject({ name: "release-helper", file: join("plugins", "example-plugin.mjs") });
    expect(plugin.tools.map((tool) => [tool.name, tool.source, tool.plugin, tool.tags])).toEqual([
      ["changelog_draft", "plugin", "release-helper", ["release-helper"]],
      ["semver_bump", "plugin", "release-helper", ["release-helper"]],
    ]);
    // Without a summary, the first sentence of the description; with one, the plugin's own.
    expect(plugin.tools[0].summary).toBe("Drafts a Keep-a-Changelog style entry for a version from a list of changes.");
    expect(plugin.tools[1].summary).toBe("Compute the next semantic version from the current one and the kinds of changes.");
    for (const tool of plugin.tools) expect(validateToolDraft(tool)).toEqual([]);
  });

  it("gives the model this JSON Schema for changelog_draft", async () => {
    const { plugins } = await loadPlugins("plugins");
    expect(plugins[0].tools[0].inputSchema).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "changes": {
            "description": "The changes since the previous release.",
            "items": {
              "additionalProperties": false,
              "properties": {
                "kind": {
                  "description": "Which section the change belongs to.",
                  "enum": [
                    "added",
                    "changed",
                    "fixed",
                    "removed",
                    "security",
                  ],
                  "type": "string",
                },
                "text": {
                  "description": "The change, in the imperative, e.g. 'Rank exact name matches first'.",
                  "maxLength": 300,
                  "minLength": 3,
                  "type": "string",
                },
              },
              "required": [
                "kind",
                "text",
              ],
              "type": "object",
            },
            "maxItems": 200,
            "minItems": 1,
            "type": "array",
          },
          "date": {
            "description": "Release date (YYYY-MM-DD); today when omitted.",
            "format": "date",
            "type": "string",
          },
          "version": {
            "description": "The version being released, e.g. 2.4.0.",
            "pattern": "^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$",
            "type": "string",
          },
        },
        "required": [
          "version",
          "changes",
        ],
        "type": "object",
      }
    `);
  });

  it("rewrites bash's description for GPT models only, through the pipeline's last stage", async () => {
    const { plugins } = await loadPlugins("plugins");
    const tools = [...registered([...BUILTIN_TOOLS], "builtin"), ...registered(plugins[0].tools, "plugin")];
    const definitionHooks = pluginDefinitionHooks(plugins);
    const bashFor = (modelId: string) => {
      const result = runPipeline(tools, createPipelineContext({ catalogId: "test", modelId, definitionHooks }));
      return { bash: result.tools.find((tool) => tool.name === "bash"), result };
    };

    const gpt = bashFor("openai/gpt-5");
    expect(gpt.bash?.description).toMatch(/\n\nNote: prefer the workdir parameter over "cd <dir> &&" chains/);
    const stage = gpt.result.trace.find((entry) => entry.stage === "definition-overrides");
    expect(stage?.changed).toEqual([{ name: "bash", reason: 'plugin hook "release-helper" rewrites the description' }]);
    // Plugin tools are scheduled like built-ins: they reach the model.
    expect(gpt.result.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["changelog_draft", "semver_bump"]));

    const claude = bashFor("claude-sonnet-4-5");
    expect(claude.bash?.description).toBe(BUILTIN_TOOLS.find((tool) => tool.name === "bash")?.description);
  });
});

describe("loadPlugins with broken plugins", () => {
  it("reports each broken plugin with its error and still loads the good ones", async () => {
    const { plugins, errors } = await loadPlugins(BROKEN);
    expect(plugins.map((plugin) => [plugin.name, plugin.tools.map((tool) => tool.name)])).toEqual([
      ["good", ["ticket_lookup"]],
      ["typed", ["incident_open"]],
    ]);
    const byFile = Object.fromEntries(errors.map((error) => [error.file.slice(BROKEN.length + 1), error.message]));
    expect(Object.keys(byFile).sort()).toEqual([
      "builtin-name.mjs",
      "duplicate-tool.mjs",
      "invalid-export.mjs",
      "invalid-tool-name.mjs",
      "no-export.mjs",
      "syntax-error.mjs",
      "throws-on-import.mjs",
      "typescript-syntax-error.ts",
      "unconvertible-args.mjs",
    ]);
    expect(byFile["builtin-name.mjs"]).toBe('tools.0 ("bash"): the name is taken by a built-in tool.');
    expect(byFile["duplicate-tool.mjs"]).toBe('tools.0 ("ticket_lookup"): the plugin "good" already defines a tool with this name.');
    expect(byFile["invalid-export.mjs"]).toBe(
      "Invalid plugin export: name: must be 1-32 lowercase letters, digits, '_' or '-'; tools.0.args.limit: must be a zod schema; hooks: Unrecognized key: \"tool.definitions\".",
    );
    expect(byFile["invalid-tool-name.mjs"]).toMatch(/^tools\.0 \("search issues"\): Name may contain only letters, digits/);
    expect(byFile["no-export.mjs"]).toMatch(/^The module exports no plugin/);
    // The wording of a syntax error depends on who parses the module (Node or the test runner's transform).
    expect(byFile["syntax-error.mjs"]).toMatch(/^Failed to load: .*(SyntaxError|invalid JS syntax)/);
    expect(byFile["throws-on-import.mjs"]).toBe("Failed to load: FIXTURE_TOKEN is not configured");
    expect(byFile["typescript-syntax-error.ts"]).toMatch(/^Failed to load: TransformError: .*typescript-syntax-error\.ts:3:\d+: ERROR/s);
    expect(byFile["unconvertible-args.mjs"]).toBe('tools.0 ("remind_at"): args cannot be converted to JSON Schema: Date cannot be represented in JSON Schema');
  });

  it("loads a TypeScript plugin through tsx, with its named export and summary", async () => {
    const { plugins } = await loadPlugins(BROKEN);
    const typed = plugins.find((plugin) => plugin.name === "typed");
    expect(typed?.file).toBe(join(BROKEN, "b-typed.ts"));
    expect(typed?.tools[0]).toMatchObject({
      summary: "Open an incident.",
      inputSchema: { properties: { severity: { default: "low", enum: ["low", "high"] } }, required: ["title"] },
    });
  });

  it("treats a missing folder as no plugins, and picks up an edited plugin on the next load", async () => {
    expect(await loadPlugins(join(BROKEN, "missing"))).toEqual({ plugins: [], errors: [] });
    const folder = await mkdtemp(join(tmpdir(), "toolshed-plugins-"));
    try {
      const file = join(folder, "live.mjs");
      await writeFile(file, 'export default { name: "live", tools: [] };');
      expect((await loadPlugins(folder)).plugins[0].tools).toEqual([]);
      await writeFile(
        file,
        'import { z } from "zod"; export default { name: "live", tools: [{ name: "ping", description: "Pings.", args: { host: z.string() } }] };',
      );
      // A different modification time is what marks the file as edited.
      await utimes(file, new Date(), new Date(Date.now() + 5_000));
      expect((await loadPlugins(folder)).plugins[0].tools.map((tool) => tool.name)).toEqual(["ping"]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe("pluginDefinitionHooks", () => {
  const ctx = createPipelineContext({ catalogId: "test", modelId: "gpt-5" });
  const tool: PipelineTool = {
    name: "grep",
    summary: "Search file contents.",
    description: "Searches.",
    inputSchema: { type: "object", properties: { pattern: { type: "string" } } },
    source: "builtin",
    enabled: true,
    tags: [],
    registered: true,
    requires: {},
  };
  const plugin = (name: string, hook: (tool: PipelineTool) => unknown): LoadedPlugin => ({
    name,
    file: `${name}.mjs`,
    digest: name,
    tools: [],
    hooks: { "tool.definition": hook as DefinitionHook },
  });

  it("adapts hooks in plugin order, named after their plugin, and skips plugins without one", () => {
    const hooks = pluginDefinitionHooks([
      plugin("first", () => ({ summary: "Rewritten." })),
      { name: "quiet", file: "quiet.mjs", digest: "quiet", tools: [], hooks: {} },
      plugin("second", () => undefined),
    ]);
    expect(hooks.map((hook) => hook.name)).toEqual(["first", "second"]);
    expect(hooks[0](tool, ctx)).toEqual({ summary: "Rewritten." });
    expect(hooks[1](tool, ctx)).toBeUndefined();
  });

  it("keeps a plugin from editing the tool in place", () => {
    const [hook] = pluginDefinitionHooks([
      plugin("sneaky", (seen) => {
        (seen.inputSchema.properties as Record<string, unknown>).injected = { type: "string" };
        (seen as { description: string }).description = "Mutated.";
        return undefined;
      }),
    ]);
    expect(() => hook(tool, ctx)).toThrow(TypeError);
    expect(tool.description).toBe("Searches.");
    expect(tool.inputSchema.properties).toEqual({ pattern: { type: "string" } });
  });

  it("fails an asynchronous hook instead of ignoring it", () => {
    const [hook] = pluginDefinitionHooks([plugin("slow", async () => ({ description: "Too late." }))]);
    expect(() => hook(tool, ctx)).toThrow("tool.definition must return its changes directly, not a Promise");
  });
});
