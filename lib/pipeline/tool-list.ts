import { countTokens, type TokenCount } from "../formats/tokens";
import { Lru } from "../tools/lru";
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
  definitionHooks?: readonly DefinitionHook[];
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

/**
 * Tool lists already computed, per catalog state and request. Only a frozen state (see
 * `freezeCatalogState`) is reused this way: the app freezes the state it caches per catalog
 * revision and local sources (app/_services/sources.ts), so every tool list computed from it
 * stays valid until it is replaced; any other state is computed afresh on every call, as before.
 * Definition hooks are taken to depend only on the tool and the context they are given, as
 * their contract says, so with a frozen state they run once per state and request.
 * Bounded per state by lists and by the tools they hold; the lists die with their state.
 */
export const TOOL_LISTS_PER_STATE = 32;
const TOOL_LIST_TOOLS_PER_STATE = 600_000;
const computed = new WeakMap<CatalogState, Lru<string, ToolList>>();
const stateOfList = new WeakMap<ToolList, CatalogState>();

function requestKey(request: ToolListRequest, format: ProviderFormat): string {
  return JSON.stringify([request.model, request.agent, request.provider ?? null, request.mode ?? null, request.flags ?? null, format]);
}

/**
 * Freezes a catalog state, its tool, agent and hook arrays and each tool, so that it can be shared
 * between requests and what is computed from it reused. Input schemas are left as they are and
 * must not be changed either.
 */
export function freezeCatalogState<S extends CatalogState>(state: S): S {
  for (const tool of state.tools) Object.freeze(tool);
  Object.freeze(state.tools);
  Object.freeze(state.agents);
  if (state.definitionHooks) Object.freeze(state.definitionHooks);
  return Object.freeze(state);
}

function isShared(state: CatalogState): boolean {
  return Object.isFrozen(state) && Object.isFrozen(state.tools) && Object.isFrozen(state.agents);
}

/**
 * The frozen (shared) catalog state a list was computed from, whose tools cannot change under
 * it; undefined for a list of any other state.
 */
export function sharedStateOf(list: ToolList): CatalogState | undefined {
  return stateOfList.get(list);
}

/** For tests: how many tool lists are kept for this state. */
export function cachedToolLists(state: CatalogState): number {
  return computed.get(state)?.size ?? 0;
}

/**
 * The tool list one model and agent would be handed, formatted for its API, with the trace and
 * token counts. It is frozen: for a frozen state the same answer is handed to every caller asking
 * the same, so it must be read, never changed.
 */
export function computeToolList(state: CatalogState, request: ToolListRequest): ToolList {
  const format = request.format ?? "ai-sdk";
  if (!isShared(state)) return buildToolList(state, request, format);
  let lists = computed.get(state);
  if (lists === undefined) {
    lists = new Lru({ maxEntries: TOOL_LISTS_PER_STATE, maxWeight: TOOL_LIST_TOOLS_PER_STATE, weigh: (list) => list.final.length + 1 });
    computed.set(state, lists);
  }
  return lists.getOrCreate(requestKey(request, format), () => {
    const list = buildToolList(state, request, format);
    stateOfList.set(list, state);
    return list;
  });
}

function buildToolList(state: CatalogState, request: ToolListRequest, format: ProviderFormat): ToolList {
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
  const { tools, trace } = runPipeline(state.tools, context);
  return Object.freeze({
    format,
    provider: context.provider,
    mode: context.mode,
    tools: Object.freeze(toProviderFormat(tools, format)) as ToolList["tools"],
    final: Object.freeze(tools) as FinalTool[],
    trace: Object.freeze(trace) as TraceEntry[],
    tokens: Object.freeze(countTokens(tools, format)),
  });
}
