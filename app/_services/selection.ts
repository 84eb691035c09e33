import "server-only";
import type { Db } from "@/db/client";
import { addToHistory, listTranscript, openConversation } from "@/db/queries/conversations";
import { recordDecision } from "@/db/queries/decisions";
import { auxSelectorFromEnv } from "@/lib/ai/models";
import { computeToolList } from "@/lib/pipeline/tool-list";
import { catalogCorpus } from "@/lib/selection/candidates";
import { LocalIndexCache } from "@/lib/selection/local";
import { createLocalSelector, LOCAL_SELECTOR_ID } from "@/lib/selection/local-selector";
import { indexKeyFor, preselect } from "@/lib/selection/preselect";
import type { Selector } from "@/lib/selection/selector";
import { runToolSearch } from "@/lib/selection/tool-search";
import { totalTokens } from "@/lib/formats/tokens";
import type { ConversationMessage } from "@/lib/selection/types";
import { registryView } from "@/lib/selection/verify";
import { ToolshedError } from "@/lib/errors";
import { catalogState } from "./sources";

interface SelectorRegistry {
  local: Selector;
  aux: Selector;
}

const shared = globalThis as unknown as { toolshedSelectors?: SelectorRegistry };

/** The local selector and the configured auxiliary one, built once per process so indexes are reused. */
export function selectorRegistry(): SelectorRegistry {
  if (!shared.toolshedSelectors) {
    const cache = new LocalIndexCache();
    shared.toolshedSelectors = { local: createLocalSelector(cache), aux: auxSelectorFromEnv(process.env, cache) };
  }
  return shared.toolshedSelectors;
}

/** "local", or the id of the configured auxiliary model. */
export function selectorById(id: string | undefined): Selector {
  const { local, aux } = selectorRegistry();
  if (id === undefined || id === aux.id) return aux;
  if (id === LOCAL_SELECTOR_ID) return local;
  throw new ToolshedError("bad_request", `Unknown selector "${id}": use "${LOCAL_SELECTOR_ID}"${aux.id === LOCAL_SELECTOR_ID ? "" : ` or "${aux.id}"`}.`, "selector");
}

/** True when the selector a request names (or the default) calls a language model: it counts against the model rate limit. */
export function selectorCallsModel(id: string | undefined): boolean {
  return selectorById(id).id !== LOCAL_SELECTOR_ID;
}

export interface TurnRequest {
  model: string;
  agent: string;
  provider?: string;
  mode?: string;
  flags?: string[];
  conversationId?: string;
}

function pipelineRequest(request: TurnRequest) {
  return { model: request.model, agent: request.agent, provider: request.provider, mode: request.mode, flags: request.flags };
}

/** Preselection for one turn, recorded as a decision; the chosen tools join the conversation's history. */
export async function runPreselection(db: Db, catalogId: string, request: TurnRequest & { messages: ConversationMessage[]; k?: number; selector?: string }) {
  const state = await catalogState(db, catalogId);
  const conversation = openConversation(db, catalogId, request.conversationId, { ...pipelineRequest(request), title: request.messages.at(-1)?.content.slice(0, 80) });
  const selector = selectorById(request.selector);
  const result = await preselect({
    state,
    revision: state.revision,
    request: pipelineRequest(request),
    messages: request.messages,
    history: conversation.history,
    k: request.k,
    selector,
  });
  const decision = recordDecision(db, {
    catalogId,
    conversationId: conversation.id,
    revision: state.revision,
    kind: "preselect",
    path: "preselect",
    model: request.model,
    agent: request.agent,
    mode: request.mode ?? null,
    flags: request.flags ?? [],
    input: { messages: request.messages, k: request.k ?? null, history: conversation.history, provider: request.provider ?? null },
    selector: result.selection.selector,
    fallback: result.selection.fallback ?? null,
    raw: result.selection.raw,
    // The count, not every candidate's name: at 50,000 tools the names alone are a megabyte per decision.
    result: { selected: result.selected, toolSet: result.toolSet, dropped: result.dropped, candidateCount: result.candidates.length },
    rejected: result.rejected,
    latencyMs: result.latencyMs,
    tokens: result.tokens,
  });
  addToHistory(db, conversation.id, result.selected.map((tool) => tool.name));
  // The id under which recording the decision stored the last message in the conversation, if it did.
  const storedMessageId = decision.appendedMessageIds.at(-1);
  return { conversationId: conversation.id, decisionId: decision.id, storedMessageId, revision: state.revision, state, ...result };
}

/** A ToolSearch call as the main model makes it, recorded as a decision; found tools join the history. */
export async function runToolSearchCall(
  db: Db,
  catalogId: string,
  request: TurnRequest & { query: string; maxResults?: number; messages?: ConversationMessage[]; selector?: string },
) {
  const state = await catalogState(db, catalogId);
  const conversation = openConversation(db, catalogId, request.conversationId, { ...pipelineRequest(request), title: request.query.slice(0, 80) });
  const list = computeToolList(state, { ...pipelineRequest(request), format: "ai-sdk" });
  const view = registryView(state.tools, list);
  // The conversation's transcript, which the decision then refers to instead of copying it.
  const messages = request.messages ?? listTranscript(db, conversation.id).map(({ role, content }) => ({ role, content }));
  const result = await runToolSearch({
    query: request.query,
    maxResults: request.maxResults,
    view,
    selector: selectorById(request.selector),
    messages,
    indexKey: `${indexKeyFor(catalogId, state.revision, request)}:search`,
    corpus: catalogCorpus(catalogId, state.revision, state.tools),
  });
  const decision = recordDecision(db, {
    catalogId,
    conversationId: conversation.id,
    revision: state.revision,
    kind: "tool-search",
    path: result.path,
    model: request.model,
    agent: request.agent,
    mode: request.mode ?? null,
    flags: request.flags ?? [],
    input: { query: request.query, maxResults: request.maxResults ?? null, messages, provider: request.provider ?? null },
    selector: result.selection?.selector ?? null,
    fallback: result.selection?.fallback ?? null,
    raw: result.selection?.raw ?? result.requested,
    result: { requested: result.requested, tools: result.tools.map((tool) => tool.name) },
    rejected: result.rejected,
    latencyMs: result.latencyMs,
    tokens: { found: totalTokens(result.tools, "ai-sdk"), visible: list.tokens.total },
  });
  const history = addToHistory(db, conversation.id, result.tools.map((tool) => tool.name));
  return { conversationId: conversation.id, decisionId: decision.id, history, ...result };
}
