import "server-only";
import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { isBuiltinToolName } from "../../tools/builtin";
import type { InputSchema } from "../../tools/types";
import { summarize, validateToolDraft } from "../../tools/validate";
import { inputSchemaFromZod } from "../../tools/zod-schema";
import { isMissing, toLoadError, type SourceLoadError } from "../source-file";
import type { LoadedPlugin, PluginHooks, PluginToolDraft } from "./types";

const PLUGIN_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const PLUGIN_FILE = /^[^.].*(?<!\.d)\.(ts|mts|mjs|js)$/;
const TYPESCRIPT_FILE = /\.m?ts$/;

const isFunction = (value: unknown) => typeof value === "function";
const isZodSchema = (value: unknown) => typeof value === "object" && value !== null && "_zod" in value;

// Unknown keys in a tool are ignored (a plugin may carry more, e.g. an implementation);
// unknown hooks are an error, since a misspelt hook would otherwise never run.
const PluginExportSchema = z.object({
  name: z.string().regex(PLUGIN_NAME_PATTERN, "must be 1-32 lowercase letters, digits, '_' or '-'"),
  tools: z
    .array(
      z.object({
        name: z.string(),
        description: z.string(),
        args: z.record(z.string(), z.custom<z.ZodType>(isZodSchema, "must be a zod schema")),
        summary: z.string().optional(),
      }),
    )
    .max(500)
    .optional(),
  hooks: z.strictObject({ "tool.definition": z.custom<PluginHooks["tool.definition"]>(isFunction, "must be a function").optional() }).optional(),
});

class PluginError extends Error {}

async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(resolve(file));
  if (TYPESCRIPT_FILE.test(file)) {
    let tsImport: (specifier: string, parentURL: string) => Promise<Record<string, unknown>>;
    try {
      ({ tsImport } = await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "tsx/esm/api"));
    } catch {
      throw new PluginError("TypeScript plugins are loaded with the tsx package, which is not installed; install it or write the plugin as .mjs.");
    }
    // Each tsImport loads the file afresh, so an edited plugin is picked up on the next load.
    return tsImport(url.href, import.meta.url);
  }
  // The modification time in the URL makes Node load an edited file again instead of its cached copy.
  url.searchParams.set("mtime", String((await stat(file)).mtimeMs));
  return import(/* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ url.href);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

function adaptTools(plugin: z.infer<typeof PluginExportSchema>, taken: Map<string, string>): PluginToolDraft[] {
  const seen = new Set<string>();
  return (plugin.tools ?? []).map((spec, index) => {
    const at = `tools.${index} ("${spec.name}")`;
    if (isBuiltinToolName(spec.name)) throw new PluginError(`${at}: the name is taken by a built-in tool.`);
    if (seen.has(spec.name)) throw new PluginError(`${at}: the plugin defines this tool twice.`);
    const owner = taken.get(spec.name);
    if (owner !== undefined) throw new PluginError(`${at}: the plugin "${owner}" already defines a tool with this name.`);
    seen.add(spec.name);
    let inputSchema: InputSchema;
    try {
      inputSchema = inputSchemaFromZod(spec.args);
    } catch (error) {
      throw new PluginError(`${at}: args cannot be converted to JSON Schema: ${(error as Error).message}`);
    }
    const draft: PluginToolDraft = {
      name: spec.name,
      source: "plugin",
      summary: spec.summary ?? summarize(spec.description),
      description: spec.description,
      inputSchema,
      tags: [plugin.name],
      plugin: plugin.name,
    };
    const [problem] = validateToolDraft(draft);
    if (problem) throw new PluginError(`${at}: ${problem.message} (${problem.field})`);
    return draft;
  });
}

/**
 * Loads every plugin module in the folder (not its subfolders), in file-name order. A plugin
 * that fails to load, exports nothing usable or defines an invalid tool is reported with its
 * error, and the others still load. `.mjs`/`.js` files are imported natively; `.ts`/`.mts`
 * files through tsx when it is installed.
 */
export async function loadPlugins(folder: string): Promise<{ plugins: LoadedPlugin[]; errors: SourceLoadError[] }> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return { plugins: [], errors: [] };
    return { plugins: [], errors: [toLoadError(error, folder)] };
  }
  const files = entries.filter((entry) => entry.isFile() && PLUGIN_FILE.test(entry.name)).map((entry) => entry.name);
  const plugins: LoadedPlugin[] = [];
  const errors: SourceLoadError[] = [];
  const toolOwners = new Map<string, string>();
  for (const fileName of files.sort()) {
    const file = join(folder, fileName);
    try {
      const digest = createHash("sha256")
        .update(await readFile(file))
        .digest("base64url");
      const module = await importModule(file);
      const exported = module.default ?? module.plugin;
      if (exported === undefined) {
        throw new PluginError("The module exports no plugin: export default { name, tools, hooks } (or a named export `plugin`).");
      }
      const parsed = PluginExportSchema.safeParse(exported);
      if (!parsed.success) throw new PluginError(`Invalid plugin export: ${parsed.error.issues.map(describeIssue).join("; ")}.`);
      const earlier = plugins.find((plugin) => plugin.name === parsed.data.name);
      if (earlier) throw new PluginError(`The plugin name "${parsed.data.name}" is already used by ${earlier.file}.`);
      const tools = adaptTools(parsed.data, toolOwners);
      for (const tool of tools) toolOwners.set(tool.name, parsed.data.name);
      plugins.push({ name: parsed.data.name, file, digest, tools, hooks: parsed.data.hooks ?? {} });
    } catch (error) {
      errors.push(error instanceof PluginError ? { file, message: error.message } : { file, message: `Failed to load: ${describeLoadFailure(error)}` });
    }
  }
  return { plugins, errors };
}

/** The error's message, with its kind (SyntaxError, TransformError, ...) unless it is a plain Error. */
function describeLoadFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return `${error.name === "Error" ? "" : `${error.name}: `}${error.message}`;
}
