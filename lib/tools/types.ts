/** The unified tool format every source is adapted to (SPEC §1). */

export const TOOL_SOURCES = ["builtin", "custom", "plugin", "mcp", "skill", "subagent"] as const;
export type ToolSource = (typeof TOOL_SOURCES)[number];

/** The audit action of a source (MCP server, plugin, skill) changing what a tool is: its text, schema or name on the server. */
export const SOURCE_REDEFINE_ACTION = "redefine";

/** A JSON Schema whose root is an object, as every major provider requires for tool input. */
export type InputSchema = {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
};

/** When a tool is offered at all, beyond enabled/registered: checked by the pipeline. */
export interface ToolRequirements {
  /** Offered only in this agent mode, e.g. `plan`. */
  mode?: string;
  /** Offered only with this feature flag, e.g. `experimental.lsp`. */
  flag?: string;
  /** Offered only where the provider (or a configured service) has this capability. */
  capability?: "web_search";
}

/** What a model is shown of a tool. */
export interface ToolDefinition {
  name: string;
  /** At most SUMMARY_MAX characters: all that preselection sees besides the name. */
  summary: string;
  description: string;
  inputSchema: InputSchema;
}

/** What calling a source's tool needs and what its source said of it: its name on the MCP server, what the server lists of it besides its definition. */
export interface ToolMeta {
  mcpName?: string;
  /** The MCP server's hints (readOnlyHint, destructiveHint, …), as given: pinned with the definition (see pinning.ts). */
  annotations?: Record<string, unknown>;
  /** The MCP server's display name for the tool. */
  title?: string;
  /** The JSON Schema the MCP server says its structured results follow: the gateway checks each result against it. */
  outputSchema?: Record<string, unknown>;
  /** The MCP server's `_meta` for the tool, scrubbed of its secrets, served as given. */
  _meta?: Record<string, unknown>;
  /** The `$schema` the MCP server declared for the input schema: the unified format has no dialect key, the gateway serves it back. */
  inputSchemaDialect?: string;
}

/** Why a tool of a pinned source is held back: never approved (its server added it later, or its first listing had it with text flagged as poisoned), or changed since it was (see pinning.ts). */
export type HeldBack = "new" | "changed";

/** A tool as the registry holds it for one catalog. */
export interface Tool extends ToolDefinition {
  source: ToolSource;
  enabled: boolean;
  tags: string[];
  /**
   * False once its source is removed or no longer lists it (its plugin file or MCP server dropped
   * it): never offered. Whether an instance can reach the source now is that instance's own
   * knowledge, never stored: see `unavailableHere`.
   */
  registered: boolean;
  /**
   * Set, with `registered` false, on the copy of a tool an instance answers with while that
   * instance cannot reach its MCP server (app/_services/sources.ts): the registry still has it.
   */
  unavailableHere?: true;
  requires: ToolRequirements;
  /** Set while its MCP server's definition is not the one an editor approved (see pinning.ts): never offered. */
  heldBack?: HeldBack;
}

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const SUMMARY_MAX = 200;
