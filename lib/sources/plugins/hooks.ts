import "server-only";
import type { DefinitionHook, PipelineTool } from "../../pipeline/types";
import type { LoadedPlugin } from "./types";

const isThenable = (value: unknown) => typeof (value as PromiseLike<unknown> | undefined)?.then === "function";

/**
 * The plugins' `tool.definition` hooks as pipeline definition hooks, in plugin order, each named
 * after its plugin for the trace. A hook sees a frozen copy of the tool, so a plugin that edits
 * it in place instead of returning a patch cannot change the catalog behind the pipeline's
 * back; the schema is copied only when the hook reads it. The stage runs hooks synchronously,
 * so a hook returning a Promise fails (and the stage leaves the tool unchanged) instead of
 * being silently ignored.
 */
export function pluginDefinitionHooks(plugins: readonly LoadedPlugin[]): readonly DefinitionHook[] {
  // One frozen array per set of plugins loaded: what the pipeline derives from a tool with these hooks is remembered while they are the same (lib/pipeline/definition-overrides.ts).
  let hooks = hooksOfPlugins.get(plugins);
  if (hooks === undefined) {
    hooks = Object.freeze(adaptedHooks(plugins));
    hooksOfPlugins.set(plugins, hooks);
  }
  return hooks;
}

const hooksOfPlugins = new WeakMap<readonly LoadedPlugin[], readonly DefinitionHook[]>();

function adaptedHooks(plugins: readonly LoadedPlugin[]): DefinitionHook[] {
  return plugins.flatMap((plugin) => {
    const hook = plugin.hooks["tool.definition"];
    if (hook === undefined) return [];
    const adapted: DefinitionHook = (tool, ctx) => {
      let schemaCopy: PipelineTool["inputSchema"] | undefined;
      const view = Object.freeze({
        ...tool,
        get inputSchema() {
          schemaCopy ??= structuredClone(tool.inputSchema);
          return schemaCopy;
        },
      });
      const patch = hook(view, ctx);
      if (isThenable(patch)) throw new Error("tool.definition must return its changes directly, not a Promise");
      return patch;
    };
    Object.defineProperty(adapted, "name", { value: plugin.name });
    return [adapted];
  });
}
