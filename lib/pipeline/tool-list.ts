import { countTokens, perToolCounts, type TokenCount } from "../formats/tokens";
import { Lru } from "../tools/lru";
import { toProviderFormat, type ProviderFormat, type ProviderTools } from "../formats/provider-format";
import type { Agent } from "../rules/agents";
import type { CatalogRules } from "../rules/catalog-rules";
import type { Tool } from "../tools/types";
import { createPipelineContext } from "./context";
import { buildLedger, type Kit, kitFor, type Ledger, type Listed, listOf, patchedLedger } from "./ledger";
import { inPipelineSpan, runPipeline } from "./run";
import { editsByIdentity, type Identities, identitiesOf, patchedIdentities, toolEdits } from "./tool-edits";
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
 * must not be changed either. Given the frozen state of the same catalog it replaces, its lists
 * are made from the catalog's latest list of the same request where they can (see sharedToolList).
 */
export function freezeCatalogState<S extends CatalogState>(state: S, replaced?: CatalogState): S {
  // The tools a replaced frozen state shares are frozen already: only the others need it.
  const edits = replaced !== undefined && isShared(replaced) ? toolEdits(replaced.tools, state.tools, state.tools.length / 4) : undefined;
  if (edits === undefined) for (const tool of state.tools) Object.freeze(tool);
  else for (const edit of edits) for (const tool of edit.inserted) Object.freeze(tool);
  const replacedIds = replaced && toolIdentities.get(replaced);
  const patchedIds =
    edits &&
    replacedIds &&
    patchedIdentities(
      replacedIds,
      edits,
      edits.map((edit) => edit.inserted),
    );
  toolIdentities.set(state, patchedIds ?? identitiesOf(state.tools));
  Object.freeze(state.tools);
  Object.freeze(state.agents);
  if (state.definitionHooks) Object.freeze(state.definitionHooks);
  const lineage = replaced !== undefined && replaced.catalogId === state.catalogId ? lineages.get(replaced) : undefined;
  lineages.set(state, lineage ?? new Lru({ maxEntries: TOOL_LISTS_PER_STATE, maxWeight: LINEAGE_TOOLS, weigh: (entry) => entry.ledger.tools.length + 1 }));
  return Object.freeze(state);
}

/**
 * Per request, the ledger (lib/pipeline/ledger.ts) of its latest list among a catalog's frozen
 * states, one after the other: a list is made from it, whichever state it was made for (requests
 * take turns: the state before may well have had no list for this one). Shared by the states of
 * one catalog, and bounded by LINEAGE_TOOLS.
 */
type Lineage = Lru<string, Lineal>;
/** A request's latest ledger, the state it was made for, and the list made from it. */
interface Lineal {
  state: CatalogState;
  ledger: Ledger;
  listed: Listed;
}
/** About 45 bytes a tool a ledger: every request's of a 50,000-tool catalog, 16 model/agent/format combinations and more, within ≈ 65 MB. */
const LINEAGE_TOOLS = 1_600_000;
const lineages = new WeakMap<CatalogState, Lineage>();
/** The numbers of a frozen state's tools: the next state's edits from it are found from these (see Identities). */
const toolIdentities = new WeakMap<CatalogState, Identities>();
/** The numbers of a shared list's final tools, for the body made from it (lib/pipeline/tool-list-body.ts). */
const finalIdentities = new WeakMap<ToolList, Identities>();

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

/**
 * What a shared list's maps by name are made from the latest of (lib/selection/verify.ts): its
 * catalog, and its catalog and request; undefined for a list of any other state.
 */
export function lineageKeyOf(list: ToolList): { catalogId: string; request: string } | undefined {
  const state = stateOfList.get(list);
  const key = requestKeys.get(list);
  return state && key !== undefined ? { catalogId: state.catalogId, request: `${state.catalogId}\n${key}` } : undefined;
}
const requestKeys = new WeakMap<ToolList, string>();

/** The numbers of a shared list's final tools (see Identities); undefined for a list of any other state. */
export function finalIdentitiesOf(list: ToolList): Identities | undefined {
  return finalIdentities.get(list);
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
  const key = requestKey(request, format);
  return lists.getOrCreate(key, () => {
    const list = sharedToolList(state, request, format, key);
    stateOfList.set(list, state);
    requestKeys.set(list, key);
    return list;
  });
}

/**
 * A frozen state's list, from its ledger: the ledger of the catalog's latest list of the same
 * request with the changed tools' entries made again, when the rules, agents and hooks are the
 * very same objects (a change of those makes every list again); else a ledger made whole.
 */
function sharedToolList(state: CatalogState, request: ToolListRequest, format: ProviderFormat, key: string): ToolList {
  const kit = kitFor(contextOf(state, request), format);
  const lineage = lineages.get(state);
  const made = inPipelineSpan(state.tools, kit.ctx, () => fromEarlier(lineage?.peek(key), state, kit) ?? wholeLineal(state, kit));
  if (made === undefined) return buildToolList(state, request, format);
  lineage?.set(key, made);
  const { final, finalIds, formatted, trace, counts, total } = made.listed;
  const list: ToolList = Object.freeze({
    format,
    provider: kit.ctx.provider,
    mode: kit.ctx.mode,
    tools: Object.freeze(formatted) as ToolList["tools"],
    final: Object.freeze(final) as FinalTool[],
    trace: Object.freeze(trace) as TraceEntry[],
    tokens: lazyTokenCount(final, counts, total),
  });
  finalIdentities.set(list, finalIds);
  return list;
}

/** The ledger and list made from an earlier state's, when the rules, agents and hooks are the very same and few tools changed. */
function fromEarlier(earlier: Lineal | undefined, state: CatalogState, kit: Kit): Lineal | undefined {
  if (earlier === undefined) return undefined;
  const before = earlier.state;
  if (before.rules !== state.rules || before.agents !== state.agents || before.definitionHooks !== state.definitionHooks) return undefined;
  // Past a quarter of the tools changed, a whole ledger costs about as much as a patched one.
  const [beforeIds, afterIds] = [toolIdentities.get(before), toolIdentities.get(state)];
  const limit = state.tools.length / 4;
  const edits = beforeIds && afterIds ? editsByIdentity(beforeIds, afterIds, state.tools, limit) : toolEdits(earlier.ledger.tools, state.tools, limit);
  const patched = edits && patchedLedger(earlier.ledger, earlier.listed, state.tools, edits, kit);
  return patched && { state, ...patched };
}

/** A ledger made whole, and its list; undefined when it must be computed stage by stage (see buildLedger). */
function wholeLineal(state: CatalogState, kit: Kit): Lineal | undefined {
  const ledger = buildLedger(state.tools, kit);
  return ledger && { state, ledger, listed: listOf(ledger) };
}

/** The token count with `perTool` made when first read: most callers read only the total. */
function lazyTokenCount(final: readonly FinalTool[], counts: readonly number[], total: number): TokenCount {
  let perTool: Record<string, number> | undefined;
  return Object.freeze({
    total,
    get perTool() {
      perTool ??= perToolCounts(final, counts);
      return perTool;
    },
  });
}

function contextOf(state: CatalogState, request: ToolListRequest) {
  return createPipelineContext({
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
}

function buildToolList(state: CatalogState, request: ToolListRequest, format: ProviderFormat): ToolList {
  const context = contextOf(state, request);
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
