import "server-only";
export { pluginDefinitionHooks } from "./hooks";
export { loadPlugins, PLUGIN_NAME_PATTERN } from "./load";
export type { LoadedPlugin, PluginHooks, PluginToolDraft, PluginToolSpec, ToolshedPlugin } from "./types";
