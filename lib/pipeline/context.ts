import { ToolshedError } from "../errors";
import { DEFAULT_AGENTS, type Agent } from "../rules/agents";
import { DEFAULT_MODEL_RULES, type ModelRule } from "../rules/model-rules";
import type { DefinitionOverride } from "../rules/overrides";
import { DEFAULT_PROVIDERS, providerForModel, type ProviderProfile } from "../rules/providers";
import type { DefinitionHook, PipelineContext } from "./types";

export interface ContextInput {
  catalogId: string;
  modelId: string;
  /** Defaults to the provider the model id implies. */
  provider?: string;
  /** Defaults to "build". */
  agentName?: string;
  agents?: Agent[];
  /** Defaults to the agent's name, so choosing the `plan` agent means plan mode. */
  mode?: string;
  flags?: string[];
  modelRules?: ModelRule[];
  providers?: ProviderProfile[];
  searchServiceConfigured?: boolean;
  overrides?: DefinitionOverride[];
  definitionHooks?: readonly DefinitionHook[];
}

/** A full pipeline context from what a request names, the rest from the shipped defaults. */
export function createPipelineContext(input: ContextInput): PipelineContext {
  const agents = input.agents ?? DEFAULT_AGENTS;
  const agentName = input.agentName ?? "build";
  const agent = agents.find((candidate) => candidate.name === agentName);
  if (agent === undefined) throw new ToolshedError("not_found", `There is no agent named "${agentName}".`, "agent");
  return {
    catalogId: input.catalogId,
    modelId: input.modelId,
    provider: input.provider ?? providerForModel(input.modelId),
    agent,
    agents,
    mode: input.mode ?? agent.name,
    flags: input.flags ?? [],
    modelRules: input.modelRules ?? DEFAULT_MODEL_RULES,
    providers: input.providers ?? DEFAULT_PROVIDERS,
    searchServiceConfigured: input.searchServiceConfigured ?? false,
    overrides: input.overrides ?? [],
    definitionHooks: input.definitionHooks,
  };
}
