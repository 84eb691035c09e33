import { definitionTokens, totalTokens } from "../formats/tokens";
import { patchedArray, toolEdits } from "../pipeline/tool-edits";
import { Lru } from "../tools/lru";
import { computeToolList, sharedStateOf, type CatalogState, type ToolList, type ToolListRequest } from "../pipeline/tool-list";
import type { FinalTool } from "../pipeline/types";
import { ToolshedError } from "../errors";
import type { InputSchema } from "../tools/types";
import { catalogCorpus, patchedCandidates, toCandidates } from "./candidates";
import type { Selector, SelectionLearning, SelectionOutput } from "./selector";
import { TOOL_SEARCH_DEFINITION } from "./tool-search-definition";
import { assembleTurnToolSet, type TurnToolEntry } from "./turn";
import type { ConversationMessage, RankedTool, SelectorCandidate } from "./types";
import { registryView, verifyNames, type Rejection, type RegistryView } from "./verify";

export const DEFAULT_PRESELECT_K = 8;

export interface PreselectionResult {
  /** Verified, best first, at most k. */
  selected: RankedTool[];
  toolSet: TurnToolEntry[];
  /** What the selector returned that failed verification. */
  rejected: Rejection[];
  /** Base and history tools left out of the tool set because they are no longer visible. */
  dropped: Rejection[];
  selection: SelectionOutput;
  /** Candidate names the selector saw (never schemas). */
  candidates: string[];
  tokens: { toolSet: number; visible: number; candidates: number };
  latencyMs: number;
  view: RegistryView;
}

/** The key under which a candidate set's index is reused: it changes with every catalog revision. */
export function indexKeyFor(catalogId: string, revision: number, request: Pick<ToolListRequest, "model" | "agent">): string {
  return `${catalogId}@${revision}:${request.model}:${request.agent}`;
}

/** What preselection offers the selector for one tool list and set of base tools. */
interface CandidateBasis {
  tools: readonly FinalTool[];
  candidates: readonly SelectorCandidate[];
  names: readonly string[];
  /** Tokens of the candidates as the selector sees them: name and summary. */
  tokens: number;
}

// A shared schema object, so the token counts of summary-only definitions are remembered by identity.
const SUMMARY_ONLY_SCHEMA: InputSchema = Object.freeze({ type: "object" as const });

// Per tool list (shared while its catalog state is) and base tools; dies with the list.
const candidateBases = new WeakMap<ToolList, Map<string, CandidateBasis>>();
/** Per catalog, request and base tools, the latest basis: the next revision's is made from it. */
const latestBases = new Lru<string, CandidateBasis>({ maxEntries: 64 });
// A frozen final tool's candidate tokens, counted once.
const summaryTokens = new WeakMap<FinalTool, number>();

function candidateBasis(list: ToolList, visible: RegistryView["visible"], baseTools: readonly string[], lineage: string): CandidateBasis {
  let byBase = candidateBases.get(list);
  if (byBase === undefined) {
    byBase = new Map();
    candidateBases.set(list, byBase);
  }
  const key = baseTools.join("\n");
  let basis = byBase.get(key);
  if (basis === undefined) {
    // Only the lists of shared states follow one another revision after revision.
    const shared = sharedStateOf(list) !== undefined;
    basis = basisFrom(withoutBaseTools(list.final, visible, baseTools), shared ? latestBases.get(`${lineage}\n${key}`) : undefined);
    byBase.set(key, basis);
    if (shared) latestBases.set(`${lineage}\n${key}`, basis);
  }
  return basis;
}

/**
 * The basis of a list: from an earlier list's, when few of its tools changed (a list of the next
 * revision keeps the final tool objects of unchanged tools, so the candidate objects are those of
 * before too, and a selector's index recognises them); else made whole.
 */
function basisFrom(tools: readonly FinalTool[], earlier: CandidateBasis | undefined): CandidateBasis {
  const edits = earlier && toolEdits(earlier.tools, tools, tools.length / 4);
  if (edits === undefined) {
    let tokens = 0;
    for (const tool of tools) tokens += candidateTokens(tool);
    return { tools, candidates: Object.freeze(toCandidates(tools)), names: Object.freeze(tools.map((tool) => tool.name)), tokens };
  }
  let tokens = earlier!.tokens;
  for (const edit of edits) {
    for (let index = edit.from; index < edit.from + edit.removed; index++) tokens -= candidateTokens(earlier!.tools[index]);
    for (const tool of edit.inserted) tokens += candidateTokens(tool);
  }
  return {
    tools,
    candidates: patchedCandidates(earlier!.candidates, edits),
    names: Object.freeze(
      patchedArray(
        earlier!.names,
        edits,
        edits.map((edit) => edit.inserted.map((tool) => tool.name)),
      ),
    ),
    tokens,
  };
}

/**
 * The list's tools but the agent's base tools (always in its tool set, never candidates): found by
 * name, as a list has few of them, and cut out of the list, or the list itself when it has none.
 */
function withoutBaseTools(final: readonly FinalTool[], visible: RegistryView["visible"], baseTools: readonly string[]): readonly FinalTool[] {
  const positions = baseTools
    .map((name) => visible.get(name))
    .filter((tool) => tool !== undefined)
    .map((tool) => final.indexOf(tool))
    .sort((a, b) => a - b);
  if (positions.length === 0) return final;
  return Object.freeze(
    patchedArray(
      final,
      positions.map((from) => ({ from, removed: 1, inserted: [] })),
      positions.map(() => []),
    ),
  );
}

/** Tokens of a candidate as the selector sees it: name and summary. */
function candidateTokens(tool: FinalTool): number {
  let count = summaryTokens.get(tool);
  if (count === undefined) {
    count = definitionTokens({ name: tool.name, summary: tool.summary, description: tool.summary, inputSchema: SUMMARY_ONLY_SCHEMA }, "ai-sdk");
    if (Object.isFrozen(tool)) summaryTokens.set(tool, count);
  }
  return count;
}

/**
 * Before a turn: the pipeline gives the visible tools, the auxiliary selector ranks them from
 * names and short text, the registry check keeps only visible ones, and the turn's tool set is
 * assembled from base tools, the top k, the conversation's history and the ToolSearch entry.
 */
export async function preselect(input: {
  state: CatalogState;
  revision: number;
  request: Omit<ToolListRequest, "format">;
  messages: ConversationMessage[];
  history: string[];
  k?: number;
  selector: Selector;
  /** What the catalog learned from use, for a selector that adds it (the local one). */
  learning?: SelectionLearning;
  now?: () => number;
}): Promise<PreselectionResult> {
  if (!input.messages.some((message) => message.role === "user" && message.content.trim())) {
    throw new ToolshedError("bad_request", "Preselection needs at least one user message with text.", "messages");
  }
  const now = input.now ?? performance.now.bind(performance);
  const k = input.k ?? DEFAULT_PRESELECT_K;
  const list = computeToolList(input.state, { ...input.request, format: "ai-sdk" });
  const view = registryView(input.state.tools, list);
  const agent = input.state.agents.find((candidate) => candidate.name === input.request.agent)!;
  const basis = candidateBasis(list, view.visible, agent.baseTools, JSON.stringify([input.state.catalogId, input.request]));

  const started = now();
  const selection = await input.selector.select({
    candidates: basis.candidates as SelectorCandidate[],
    messages: input.messages,
    k,
    indexKey: `${indexKeyFor(input.state.catalogId, input.revision, input.request)}:preselect`,
    corpus: catalogCorpus(input.state.catalogId, input.revision, input.state.tools),
    learning: input.learning,
  });
  const latencyMs = now() - started;

  const verified = verifyNames([...selection.ranked.map((tool) => tool.name), ...selection.invented], view);
  const passedNames = new Set(verified.passed.map((tool) => tool.name));
  const selected = selection.ranked.filter((tool) => passedNames.has(tool.name)).slice(0, k);
  const turn = assembleTurnToolSet({ baseTools: agent.baseTools, preselected: selected.map((tool) => tool.name), history: input.history, view });

  const setDefinitions = turn.entries.map((entry) => (entry.origin === "entry" ? TOOL_SEARCH_DEFINITION : view.visible.get(entry.name)!));
  return {
    selected,
    toolSet: turn.entries,
    rejected: verified.rejected,
    dropped: turn.dropped,
    selection,
    candidates: [...basis.names],
    tokens: {
      toolSet: totalTokens(setDefinitions, "ai-sdk"),
      visible: list.tokens.total,
      candidates: basis.tokens,
    },
    latencyMs,
    view,
  };
}
