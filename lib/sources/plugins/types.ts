import type { z } from "zod";
import type { DefinitionHook } from "../../pipeline/types";
import type { ToolDefinition } from "../../tools/types";

/** A tool as a plugin defines it: the input is a zod shape, converted like the built-ins' parameters. */
export interface PluginToolSpec {
  name: string;
  description: string;
  args: z.ZodRawShape;
  /** What preselection sees; cut from the description when absent. */
  summary?: string;
}

export interface PluginHooks {
  /** Runs in the pipeline's last stage for every tool a model is about to see; returns the fields to replace. */
  "tool.definition"?: DefinitionHook;
}

/** What a plugin module exports, as `default` or as `plugin`. */
export interface ToolshedPlugin {
  name: string;
  tools?: PluginToolSpec[];
  hooks?: PluginHooks;
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
