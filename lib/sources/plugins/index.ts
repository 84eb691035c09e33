import "server-only";
export { pluginDefinitionHooks } from "./hooks";
export { loadPlugins } from "./load";
export type { LoadedPlugin } from "./types";
