import { countTokens } from "../formats/tokens";
import { computeToolList, type CatalogState, type ToolListRequest } from "../pipeline/tool-list";
import { ToolshedError } from "../errors";
import { toCandidates } from "./candidates";
import type { Selector, SelectionOutput } from "./selector";
import { TOOL_SEARCH_DEFINITION } from "./tool-search-definition";
import { assembleTurnToolSet, type TurnToolEntry } from "./turn";
import type { ConversationMessage, RankedTool } from "./types";
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
  const base = new Set(agent.baseTools);
  const candidates = list.final.filter((tool) => !base.has(tool.name));

  const started = now();
  const selection = await input.selector.select({
    candidates: toCandidates(candidates),
    messages: input.messages,
    k,
    indexKey: `${indexKeyFor(input.state.catalogId, input.revision, input.request)}:preselect`,
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
    candidates: candidates.map((tool) => tool.name),
    tokens: {
      toolSet: countTokens(setDefinitions, "ai-sdk").total,
      visible: list.tokens.total,
      candidates: countTokens(
        candidates.map((tool) => ({ name: tool.name, summary: tool.summary, description: tool.summary, inputSchema: { type: "object" } })),
        "ai-sdk",
      ).total,
    },
    latencyMs,
    view,
  };
}
