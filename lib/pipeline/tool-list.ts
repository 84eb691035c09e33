import { countTokens, type TokenCount } from "../formats/tokens";
import { toProviderFormat, type ProviderFormat, type ProviderTools } from "../formats/provider-format";
import type { Agent } from "../rules/agents";
import type { CatalogRules } from "../rules/catalog-rules";
import type { Tool } from "../tools/types";
import { createPipelineContext } from "./context";
import { runPipeline } from "./run";
import type { DefinitionHook, FinalTool, TraceEntry } from "./types";

/** What a caller asks for: a model, an agent, and optionally the rest of the context. */
export interface ToolListRequest {
  model: string;
  agent: string;
  provider?: string;
  mode?: string;
  flags?: string[];
  format?: ProviderFormat;
}

/** One catalog as the pipeline reads it. */
export interface CatalogState {
  catalogId: string;
  tools: Tool[];
  rules: CatalogRules;
  agents: Agent[];
  definitionHooks?: DefinitionHook[];
}

export interface ToolList {
  format: ProviderFormat;
  provider: string | undefined;
  mode: string;
  tools: ProviderTools[ProviderFormat][];
  /** The same tools before formatting, with source, tags and approval marks. */
  final: FinalTool[];
  trace: TraceEntry[];
  tokens: TokenCount;
}

/** The tool list one model and agent would be handed, formatted for its API, with the trace and token counts. */
export function computeToolList(state: CatalogState, request: ToolListRequest): ToolList {
  const context = createPipelineContext({
    catalogId: state.catalogId,
    modelId: request.model,
    provider: request.provider,
    agentName: request.agent,
    agents: state.agents,
    mode: request.mode,
    flags: request.flags,
    modelRules: state.rules.modelRules,
    providers: state.rules.providers,
    searchServiceConfigured: state.rules.searchServiceConfigured,
    overrides: state.rules.overrides,
    definitionHooks: state.definitionHooks,
  });
  const format = request.format ?? "ai-sdk";
  const { tools, trace } = runPipeline(state.tools, context);
  return {
    format,
    provider: context.provider,
    mode: context.mode,
    tools: toProviderFormat(tools, format),
    final: tools,
    trace,
    tokens: countTokens(tools, format),
  };
}
