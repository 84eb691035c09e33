import type { Agent } from "../rules/agents";
import type { ModelRule } from "../rules/model-rules";
import type { DefinitionOverride, ToolAnnotationsOverride } from "../rules/overrides";
import type { ProviderProfile } from "../rules/providers";
import type { Tool, ToolDefinition, ToolSource } from "../tools/types";

/** A tool on its way through the pipeline. */
export interface PipelineTool extends Tool {
  /** Set by the permission stage when the agent must ask the user before each call. */
  needsApproval?: boolean;
  /** Set by a catalog override: MCP annotations served over the ones its source gives (see lib/gateway/served-tools.ts). */
  annotations?: ToolAnnotationsOverride;
  /** Set by a catalog override: the parameter defaults it put in the schema, filled into a call's arguments that leave them out (the MCP gateway). */
  argumentDefaults?: Record<string, unknown>;
}

/** What the model is handed, in catalog order. */
export interface FinalTool extends ToolDefinition {
  source: ToolSource;
  tags: string[];
  needsApproval: boolean;
  /** MCP annotations a catalog override sets, served over its source's; absent when none does. */
  annotations?: ToolAnnotationsOverride;
  /** Parameter defaults a catalog override sets: a call that leaves the parameter out gets this value, not its server's own default. */
  argumentDefaults?: Record<string, unknown>;
}

/** A plugin's last word on a definition. The name is the tool's identity and cannot be rewritten. */
export type DefinitionHook = (tool: Readonly<PipelineTool>, ctx: PipelineContext) => Partial<Omit<ToolDefinition, "name">> | undefined;

export interface PipelineContext {
  catalogId: string;
  modelId: string;
  /** Provider id, already resolved (e.g. from the model id); undefined when unknown. */
  provider: string | undefined;
  agent: Agent;
  /** Every agent of the catalog: the candidates for delegation via `task`. */
  agents: Agent[];
  /** The agent mode tools with `requires.mode` are matched against, e.g. "plan". */
  mode: string;
  flags: string[];
  modelRules: ModelRule[];
  providers: ProviderProfile[];
  searchServiceConfigured: boolean;
  overrides: DefinitionOverride[];
  definitionHooks?: readonly DefinitionHook[];
}

export interface ToolNote {
  name: string;
  reason: string;
}

export interface StageResult<T = PipelineTool> {
  tools: T[];
  removed: ToolNote[];
  changed: ToolNote[];
}

export type Stage = (tools: PipelineTool[], ctx: PipelineContext) => StageResult;

export const STAGE_NAMES = [
  "aggregate",
  "model-rules",
  "provider-capabilities",
  "conditional",
  "permissions",
  "delegation",
  "definition-overrides",
  "final",
] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export interface TraceEntry {
  stage: StageName;
  removed: ToolNote[];
  changed: ToolNote[];
  /** Tools left after the stage, so a stage-by-stage view needs no recounting. */
  remaining: number;
}

export interface PipelineResult {
  tools: FinalTool[];
  trace: TraceEntry[];
}
