import type { DefinitionHook } from "../../pipeline/types";
import type { ToolDefinition } from "../../tools/types";

export interface PluginHooks {
  /** Runs in the pipeline's last stage for every tool a model is about to see; returns the fields to replace. */
  "tool.definition"?: DefinitionHook;
}

export interface PluginToolDraft extends ToolDefinition {
  source: "plugin";
  tags: string[];
  plugin: string;
}

export interface LoadedPlugin {
  name: string;
  file: string;
  /** A digest of the module file as it was read, for the local sources' version (lib/sources/version.ts). */
  digest: string;
  tools: PluginToolDraft[];
  hooks: PluginHooks;
}
