import { totalTokens } from "../formats/tokens";
import { computeToolList, type CatalogState, type ToolList, type ToolListRequest } from "../pipeline/tool-list";
import type { FinalTool } from "../pipeline/types";
import { ToolshedError } from "../errors";
import type { InputSchema } from "../tools/types";
import { catalogCorpus, toCandidates } from "./candidates";
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

function candidateBasis(list: ToolList, baseTools: readonly string[]): CandidateBasis {
  let byBase = candidateBases.get(list);
  if (byBase === undefined) {
    byBase = new Map();
    candidateBases.set(list, byBase);
  }
  const key = baseTools.join("\n");
  let basis = byBase.get(key);
  if (basis === undefined) {
    const base = new Set(baseTools);
    const tools = Object.freeze(list.final.filter((tool) => !base.has(tool.name)));
    basis = {
      tools,
      candidates: Object.freeze(toCandidates(tools)),
      names: Object.freeze(tools.map((tool) => tool.name)),
      tokens: totalTokens(
        tools.map((tool) => ({ name: tool.name, summary: tool.summary, description: tool.summary, inputSchema: SUMMARY_ONLY_SCHEMA })),
        "ai-sdk",
      ),
    };
    byBase.set(key, basis);
  }
  return basis;
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
  const basis = candidateBasis(list, agent.baseTools);

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
