import "server-only";
import { log } from "@/lib/observability/log";
import { getDb, type Db } from "@/db/client";
import { listTranscript, openConversation } from "@/db/queries/conversations";
import { countToolEmbeddings, loadToolEmbeddings, saveToolEmbeddings } from "@/db/queries/tool-embeddings";
import { auxSelectorFromEnv, defaultSelectorId, EMBEDDING_MODEL_VARIABLE, embeddingModelFromEnv } from "@/lib/ai/models";
import { type CatalogState, computeToolList } from "@/lib/pipeline/tool-list";
import { catalogCorpus } from "@/lib/selection/candidates";
import { EmbeddingIndex, type EmbeddingProgress, type EmbeddingStore } from "@/lib/selection/embedding-index";
import { createHybridSelector, HYBRID_SELECTOR_ID, type HybridSelector } from "@/lib/selection/hybrid-selector";
import { LocalIndexCache } from "@/lib/selection/local";
import { corpusIndex, createLocalSelector, LOCAL_SELECTOR_ID } from "@/lib/selection/local-selector";
import { indexKeyFor, preselect } from "@/lib/selection/preselect";
import type { Selector } from "@/lib/selection/selector";
import { runToolSearch } from "@/lib/selection/tool-search";
import { totalTokens } from "@/lib/formats/tokens";
import type { ConversationMessage } from "@/lib/selection/types";
import { registryView } from "@/lib/selection/verify";
import { ToolshedError } from "@/lib/errors";
import { recordSelection } from "@/lib/observability/metrics";
import { inSpan } from "@/lib/observability/tracing";
import { principalKey, type Principal } from "@/lib/auth/policy";
import { enforceRateLimit } from "./access";
import { selectionLearning } from "./learning";
import { flaggedAmong } from "./poisoning";
import { catalogState } from "./catalog-states";
import { recordCountedDecision } from "./usage";

interface SelectorRegistry {
  local: Selector;
  aux: Selector;
  /** Local ranking fused with embeddings, when TOOLSHED_EMBEDDING_MODEL is set (absent otherwise). */
  hybrid?: HybridSelector;
  /** The local selector's indexes, which learning's calibration ranks with too. */
  localIndexes: LocalIndexCache;
}

const shared = globalThis as unknown as { toolshedSelectors?: SelectorRegistry };

const toolEmbeddingStore: EmbeddingStore = {
  load: (model, hashes) => loadToolEmbeddings(getDb(), model, hashes),
  save: (model, vectors) => saveToolEmbeddings(getDb(), model, vectors),
  count: (model, hashes) => countToolEmbeddings(getDb(), model, hashes),
};

function hybridFromEnv(local: Selector): HybridSelector | undefined {
  const setting = embeddingModelFromEnv(process.env);
  if (setting === undefined) return undefined;
  const embeddings = new EmbeddingIndex({
    modelId: setting.id,
    model: setting.model,
    store: toolEmbeddingStore,
    batchSize: setting.batchSize,
    log: (line) => log.info(line),
  });
  return createHybridSelector({ embeddings, local, timeoutMs: setting.timeoutMs });
}

/** The selectors the configuration offers, built once per process so indexes and vectors are reused. */
export function selectorRegistry(): SelectorRegistry {
  if (!shared.toolshedSelectors) {
    const cache = new LocalIndexCache();
    const local = createLocalSelector(cache);
    const hybrid = hybridFromEnv(local);
    shared.toolshedSelectors = { local, aux: auxSelectorFromEnv(process.env, cache), localIndexes: cache, ...(hybrid ? { hybrid } : {}) };
  }
  return shared.toolshedSelectors;
}

/** "local", "hybrid" (with an embedding model) or the id of the configured auxiliary model; none names the default. */
export function selectorById(id: string | undefined): Selector {
  const { local, aux, hybrid } = selectorRegistry();
  const wanted = id ?? defaultSelectorId(process.env);
  if (wanted === LOCAL_SELECTOR_ID) return local;
  if (wanted === HYBRID_SELECTOR_ID) {
    if (hybrid) return hybrid;
    throw new ToolshedError(
      "bad_request",
      `The "${HYBRID_SELECTOR_ID}" selector needs an embedding model: set ${EMBEDDING_MODEL_VARIABLE} (openai:<model> or openai-compatible:<model>).`,
      "selector",
    );
  }
  if (wanted === aux.id) return aux;
  const offered = [...new Set([LOCAL_SELECTOR_ID, ...(hybrid ? [HYBRID_SELECTOR_ID] : []), aux.id])].map((name) => `"${name}"`);
  throw new ToolshedError("bad_request", `Unknown selector "${id}": use ${offered.join(" or ")}.`, "selector");
}

export interface CatalogEmbeddings extends EmbeddingProgress {
  /** The embedding model, or null when none is configured (then nothing is embedded). */
  model: string | null;
  revision: number;
}

/** How far the catalog's current tools are embedded; `start` begins embedding the rest. */
export async function catalogEmbeddings(catalogId: string, { start }: { start: boolean }): Promise<CatalogEmbeddings> {
  const state = await catalogState(getDb(), catalogId);
  const { hybrid } = selectorRegistry();
  if (!hybrid) {
    if (start) throw new ToolshedError("bad_request", `No embedding model: set ${EMBEDDING_MODEL_VARIABLE} (openai:<model> or openai-compatible:<model>).`);
    return { model: null, revision: state.revision, embedded: 0, total: state.tools.length, running: false, error: null };
  }
  const corpus = catalogCorpus(catalogId, state.revision, state.tools);
  const progress = await (start ? hybrid.embeddings.ensure(corpus) : hybrid.embeddings.progress(corpus));
  return { model: hybrid.embeddings.modelId, revision: state.revision, ...progress };
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

/** The catalog as it is now, and what this model and agent see of it (every pipeline stage applied). */
export async function readTurnView(db: Db, catalogId: string, request: TurnRequest) {
  const state = await catalogState(db, catalogId);
  const list = computeToolList(state, { ...pipelineRequest(request), format: "ai-sdk" });
  return { state, list, view: registryView(state.tools, list) };
}

/** The selector, its ranking a span of its own and timed in the metrics (toolshed_selector_duration_seconds). */
function measured(selector: Selector, catalogId: string, use: "preselect" | "tool_search"): Selector {
  return {
    id: selector.id,
    select: (input) =>
      inSpan("toolshed.selector", { "toolshed.catalog": catalogId, "toolshed.selector": selector.id, "toolshed.selector.use": use }, async () => {
        const started = performance.now();
        try {
          return await selector.select(input);
        } finally {
          recordSelection(catalogId, selector.id, use, (performance.now() - started) / 1000);
        }
      }),
  };
}

/** What the catalog learned from use, for the local selector; calibrated against the catalog's index (app/_services/learning.ts). */
export function learningFor(db: Db, state: Awaited<ReturnType<typeof catalogState>>) {
  return selectionLearning(db, state.catalogId, () =>
    corpusIndex(selectorRegistry().localIndexes, catalogCorpus(state.catalogId, state.revision, state.tools)),
  );
}

/** `flagged`, when a chosen tool's text has open poisoning findings (app/_services/poisoning.ts): absent otherwise, so most decisions stay as small. */
function flaggedResult(state: CatalogState, chosen: readonly { name: string }[]) {
  const flagged = flaggedAmong(
    state,
    chosen.map((tool) => tool.name),
  );
  return flagged.length > 0 ? { flagged } : {};
}

/** A turn's span attributes: what was asked for, never what was said. */
const turnAttributes = (catalogId: string, request: TurnRequest) => ({
  "toolshed.catalog": catalogId,
  "toolshed.model": request.model,
  "toolshed.agent": request.agent,
});

/**
 * Preselection for one turn, recorded as a decision; the chosen tools join the conversation's
 * history. A new conversation is owned by `owner` (lib/auth/policy.ts principalKey).
 */
export function runPreselection(
  db: Db,
  catalogId: string,
  request: TurnRequest & { messages: ConversationMessage[]; k?: number; selector?: string },
  owner: string,
) {
  return inSpan("toolshed.preselect", turnAttributes(catalogId, request), () => preselectTurn(db, catalogId, request, owner));
}

async function preselectTurn(
  db: Db,
  catalogId: string,
  request: TurnRequest & { messages: ConversationMessage[]; k?: number; selector?: string },
  owner: string,
) {
  const state = await catalogState(db, catalogId);
  const conversation = await openConversation(db, catalogId, request.conversationId, {
    ...pipelineRequest(request),
    title: request.messages.at(-1)?.content.slice(0, 80),
    owner,
  });
  const selector = measured(selectorById(request.selector), catalogId, "preselect");
  const result = await preselect({
    state,
    revision: state.revision,
    request: pipelineRequest(request),
    messages: request.messages,
    history: conversation.history,
    k: request.k,
    selector,
    learning: await learningFor(db, state),
  });
  const decision = await recordCountedDecision(
    db,
    {
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
      result: {
        selected: result.selected,
        toolSet: result.toolSet,
        dropped: result.dropped,
        candidateCount: result.candidates.length,
        ...flaggedResult(state, result.selected),
      },
      rejected: result.rejected,
      latencyMs: result.latencyMs,
      tokens: result.tokens,
    },
    new Set(conversation.history),
    result.selected.map((tool) => tool.name),
  );
  // The id under which recording the decision stored the last message in the conversation, if it did.
  const storedMessageId = decision.appendedMessageIds.at(-1);
  return { conversationId: conversation.id, decisionId: decision.id, storedMessageId, revision: state.revision, state, ...result };
}

export type ToolSearchRequest = TurnRequest & { query: string; maxResults?: number; messages?: ConversationMessage[]; selector?: string };

/** A ToolSearch call as the main model makes it, recorded as a decision; found tools join the history. A new conversation is `owner`'s. */
export function runToolSearchCall(db: Db, catalogId: string, request: ToolSearchRequest, owner: string) {
  return inSpan("toolshed.tool_search", turnAttributes(catalogId, request), () => searchTools(db, catalogId, request, owner));
}

async function searchTools(db: Db, catalogId: string, request: ToolSearchRequest, owner: string) {
  const { state, list, view } = await readTurnView(db, catalogId, request);
  const conversation = await openConversation(db, catalogId, request.conversationId, {
    ...pipelineRequest(request),
    title: request.query.slice(0, 80),
    owner,
  });
  // The conversation's transcript, which the decision then refers to instead of copying it.
  const messages = request.messages ?? (await listTranscript(db, conversation.id)).map(({ role, content }) => ({ role, content }));
  const result = await runToolSearch({
    query: request.query,
    maxResults: request.maxResults,
    view,
    selector: measured(selectorById(request.selector), catalogId, "tool_search"),
    messages,
    indexKey: `${indexKeyFor(catalogId, state.revision, request)}:search`,
    corpus: catalogCorpus(catalogId, state.revision, state.tools),
    learning: await learningFor(db, state),
  });
  const decision = await recordCountedDecision(
    db,
    {
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
      result: { requested: result.requested, tools: result.tools.map((tool) => tool.name), ...flaggedResult(state, result.tools) },
      rejected: result.rejected,
      latencyMs: result.latencyMs,
      tokens: { found: totalTokens(result.tools, "ai-sdk"), visible: list.tokens.total },
    },
    new Set(conversation.history),
    result.tools.map((tool) => tool.name),
  );
  return { conversationId: conversation.id, decisionId: decision.id, ...result };
}

/**
 * A ToolSearch call as POST …/tool-search and the playground's ToolSearch console answer it; a
 * selector that calls a language model counts against the caller's model rate limit.
 */
export async function answerToolSearch(db: Db, catalogId: string, principal: Principal, request: ToolSearchRequest) {
  if (selectorCallsModel(request.selector)) await enforceRateLimit(principal, "model");
  const result = await runToolSearchCall(db, catalogId, request, principalKey(principal));
  return {
    conversationId: result.conversationId,
    path: result.path,
    tools: result.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    rejected: result.rejected,
    selector: result.selection?.selector ?? null,
    fallback: result.selection?.fallback ?? null,
    decisionId: result.decisionId,
    latencyMs: result.latencyMs,
  };
}
