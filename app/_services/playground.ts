import "server-only";
import type { Principal } from "@/lib/auth/policy";
import {
  createUIMessageStream,
  type InferUIMessageChunk,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  streamText,
  type UIMessageStreamWriter,
} from "ai";
import type { Db } from "@/db/client";
import type { ToolRecord } from "@/db/queries/tools";
import { appendMessage, getConversation, listMessages, setMessageDetails, type StoredMessage, updateConversation } from "@/db/queries/conversations";
import { mainModelFromEnv } from "@/lib/ai/models";
import { createTurnTools } from "@/lib/ai/turn-tools";
import { ToolshedError } from "@/lib/errors";
import { recordToolCall } from "@/lib/observability/metrics";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import type { PlaygroundExchange, PlaygroundUIMessage, SimulatedResult, ToolSearchRecord, TurnDetails } from "@/lib/playground/messages";
import { TOOL_SEARCH_NAME } from "@/lib/selection/tool-search-definition";
import type { RegistryView } from "@/lib/selection/verify";
import { readTurnView, runPreselection, runToolSearchCall, type TurnRequest } from "./selection";
import { mcpResultMaxChars } from "@/lib/sources/mcp";
import { toolArgumentsProblem } from "@/lib/tools/validate";
import { callMcpToolForModel } from "./sources";
import { callFailure, countLiveCall, learnInBackground } from "./usage";

const MAX_STEPS = 8;

export interface PlaygroundRequest extends TurnRequest, PlaygroundExchange {
  k?: number;
}

type PlaygroundChunk = InferUIMessageChunk<PlaygroundUIMessage>;

/** The conversation as the main model reads it: user text, and the model's own stored steps. */
async function modelMessagesOf(db: Db, conversationId: string): Promise<ModelMessage[]> {
  return (await listMessages(db, conversationId)).flatMap((message): ModelMessage[] => {
    const stored = (message.details as { modelMessages?: ModelMessage[] } | null)?.modelMessages;
    if (stored) return stored;
    return message.role === "user" ? [{ role: "user", content: message.content }] : [];
  });
}

/** The turn a continuation belongs to: the tool set chosen at its user message. */
function latestTurn(messages: StoredMessage[]): TurnDetails {
  const turn = messages.findLast((message) => message.role === "user")?.details as TurnDetails | undefined;
  if (!turn) throw new ToolshedError("bad_request", "Send a message before tool results: this conversation has no turn yet.", "toolResults");
  return turn;
}

function instructionsFor(agent: string): string {
  return [
    `You are the "${agent}" agent, testing a tool catalog in the Toolshed playground.`,
    `Use the tools you have. If none fits, call ${TOOL_SEARCH_NAME}: with "select:name" for a tool you know by name, or with a short description of the need.`,
    "Tools it returns are callable from your next step on.",
  ].join(" ");
}

/** What the client reads of an error in the stream: its message (an MCP failure's is already worded for this caller). */
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The model's UI message stream with the turn's own data parts where they belong: each step's tool
 * set right after the step's start, and each ToolSearch call's verification right after its output.
 * `stepTools` and `searches` are filled before the chunks they follow are produced.
 */
function withTurnData(stream: ReadableStream<PlaygroundChunk>, stepTools: string[][], searches: Map<string, ToolSearchRecord>) {
  let step = 0;
  return stream.pipeThrough(
    new TransformStream<PlaygroundChunk, PlaygroundChunk>({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        if (chunk.type === "start-step") controller.enqueue({ type: "data-tool-set", data: { activeTools: stepTools[step++] ?? [] } });
        if (chunk.type === "tool-output-available" && searches.has(chunk.toolCallId)) {
          controller.enqueue({ type: "data-tool-search", id: chunk.toolCallId, data: searches.get(chunk.toolCallId)! });
        }
      },
    }),
  );
}

/** The catalog and what this model and agent see, as the preselection of a new message already read them. */
interface TurnSeen {
  state: CatalogState;
  view: RegistryView;
}

/** The exchange's turn, once its message or results are stored: `seen` only when a new message was preselected. */
interface TurnStart {
  conversationId: string;
  turn: TurnDetails;
  seen?: TurnSeen;
}

interface PlayOptions {
  owner: string;
  /** Who plays: a per-person MCP server is called with their own credential (app/_services/mcp-personal.ts). */
  principal: Principal;
  upstreamDetails: boolean;
  signal?: AbortSignal;
}

/** An exchange carries a message or results, and results name the conversation they continue. */
function checkExchange(request: PlaygroundRequest) {
  if (!request.message && !request.toolResults?.length) {
    throw new ToolshedError("bad_request", "Send a message, or the results of the pending tool calls.", "message");
  }
  if (request.toolResults?.length && !request.conversationId) {
    throw new ToolshedError("bad_request", "Tool results belong to a conversation: give its conversationId.", "conversationId");
  }
}

/**
 * The conversation's last message when this one is it sent again: the same text under the same key
 * (a Retry after a request that failed once the message was stored).
 */
function resentMessage(messages: StoredMessage[], message: string, key: string | undefined): StoredMessage | undefined {
  const last = messages.findLast((stored) => stored.role === "user");
  return key !== undefined && last?.content === message && (last.details as TurnDetails | null)?.messageKey === key ? last : undefined;
}

/**
 * A new message: its preselection over the conversation so far, stored beside the message as the
 * turn. A message sent again (resentMessage) is preselected over what came before it, and its turn
 * replaces the one it had: it is not stored again.
 */
async function startTurn(db: Db, catalogId: string, request: PlaygroundRequest, message: string, owner: string): Promise<TurnStart> {
  const messages = request.conversationId ? await listMessages(db, (await getConversation(db, request.conversationId, catalogId)).id) : [];
  const resent = resentMessage(messages, message, request.messageKey);
  const history = (resent ? messages.slice(0, messages.indexOf(resent)) : messages)
    .filter((stored) => stored.content && (stored.role === "user" || stored.role === "assistant"))
    .map((stored) => ({ role: stored.role as "user" | "assistant", content: stored.content }));
  const preselection = await runPreselection(db, catalogId, { ...request, messages: [...history, { role: "user", content: message }] }, owner);
  const conversationId = preselection.conversationId;
  const turn: TurnDetails = {
    decisionId: preselection.decisionId,
    toolSet: preselection.toolSet,
    selected: preselection.selected,
    rejected: preselection.rejected,
    dropped: preselection.dropped,
    selector: preselection.selection.selector,
    fallback: preselection.selection.fallback ?? null,
    candidates: preselection.candidates,
    tokens: preselection.tokens,
    latencyMs: preselection.latencyMs,
    ...(request.messageKey === undefined ? {} : { messageKey: request.messageKey }),
  };
  // Recording the decision stored the message in the conversation (the decision refers to it there),
  // unless it was stored already (a message sent again): the turn goes beside it.
  const storedId = resent?.id ?? preselection.storedMessageId;
  if (storedId !== undefined) await setMessageDetails(db, conversationId, storedId, turn);
  else await appendMessage(db, conversationId, { role: "user", content: message, details: turn });
  return { conversationId, turn, seen: { state: preselection.state, view: preselection.view } };
}

/** The ids of the calls whose results the conversation already holds. */
function storedResultIds(messages: StoredMessage[]): Set<string> {
  return new Set(
    messages.flatMap((message) =>
      message.role === "tool"
        ? ((message.details as { simulatedResults?: SimulatedResult[] } | null)?.simulatedResults ?? []).map((result) => result.toolCallId)
        : [],
    ),
  );
}

/**
 * The results of a turn's simulated calls: stored as the model's tool message, in the turn their
 * message began. Results the conversation already holds (sent again after a failed request) are
 * not stored twice.
 */
async function continueTurn(db: Db, catalogId: string, conversationId: string, toolResults: SimulatedResult[]): Promise<TurnStart> {
  const conversation = await getConversation(db, conversationId, catalogId);
  const messages = await listMessages(db, conversation.id);
  const turn = latestTurn(messages);
  const stored = storedResultIds(messages);
  const fresh = toolResults.filter((result) => !stored.has(result.toolCallId));
  if (fresh.length === 0) return { conversationId, turn };
  const toolMessage: ModelMessage = {
    role: "tool",
    content: fresh.map((result) => ({
      type: "tool-result" as const,
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      output: { type: "text" as const, value: result.output },
    })),
  };
  await appendMessage(db, conversation.id, { role: "tool", content: "", details: { modelMessages: [toolMessage], simulatedResults: fresh } });
  // A result of a call the model made is a use of that tool: the selector learns from it (not from a result the client made up).
  const called = modelToolCalls(messages);
  for (const result of fresh) if (called.get(result.toolCallId) === result.toolName) learnInBackground(db, catalogId, conversationId, result.toolName);
  return { conversationId, turn };
}

/** The tool calls the main model made in the stored messages: call id → tool name. */
function modelToolCalls(messages: StoredMessage[]): Map<string, string> {
  const calls = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const modelMessage of (message.details as { modelMessages?: ModelMessage[] } | null)?.modelMessages ?? []) {
      if (modelMessage.role !== "assistant" || typeof modelMessage.content === "string") continue;
      for (const part of modelMessage.content) if (part.type === "tool-call") calls.set(part.toolCallId, part.toolName);
    }
  }
  return calls;
}

/** What the main model's answer to one exchange works with. */
interface AnswerContext {
  db: Db;
  catalogId: string;
  request: PlaygroundRequest;
  options: PlayOptions;
  conversationId: string;
  turn: TurnDetails;
  seen: TurnSeen;
}

type LiveToolRecord = ToolRecord & { sourceRef: string; meta: { mcpName: string } };

/**
 * A live MCP tool's call from the playground, counted in the usage figures as the gateway's calls
 * are (without a decision: the conversation keeps the call and its result).
 */
async function callLiveTool(
  { db, catalogId, request, options, conversationId }: Pick<AnswerContext, "db" | "catalogId" | "request" | "options" | "conversationId">,
  record: LiveToolRecord,
  args: Record<string, unknown>,
) {
  const count = (result: Parameters<typeof countLiveCall>[3], latencyMs: number) =>
    countLiveCall(db, { catalogId, conversationId, agent: request.agent, model: request.model }, record.name, result, latencyMs);
  // Arguments the tool's stored schema refuses never reach its server (as in the MCP gateway).
  const invalid = toolArgumentsProblem(record, args);
  if (invalid !== undefined) {
    recordToolCall(catalogId, record.name, "refused", null);
    await count({ outcome: "refused" }, 0);
    return { error: invalid };
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const result = await callMcpToolForModel(db, catalogId, record.sourceRef, record.meta.mcpName, args, {
      upstreamDetails: options.upstreamDetails,
      tool: record.name,
      principal: options.principal,
    });
    await count(result.isError ? { outcome: "error", failure: "upstream" } : { outcome: "ok" }, elapsed());
    return result;
  } catch (error) {
    await count({ outcome: "error", failure: callFailure(error, options.signal?.aborted === true) }, elapsed());
    throw error;
  }
}

/**
 * What the turn's tools are made of: MCP tools are called live (arguments checked against the stored
 * schema first), the others simulated; each ToolSearch call's verification goes into `searches` by its
 * call id. Read before the stream starts, so a bad setting fails the request rather than the stream.
 */
function turnToolsInput(
  { db, catalogId, request, options, conversationId, turn, seen }: AnswerContext,
  history: string[],
  searches: Map<string, ToolSearchRecord>,
): Parameters<typeof createTurnTools>[0] {
  const records = new Map((seen.state.tools as ToolRecord[]).map((tool) => [tool.name, tool]));
  return {
    view: seen.view,
    turnSet: [...turn.toolSet.filter((entry) => entry.origin !== "entry").map((entry) => entry.name), ...history],
    // MCP tools have a live backend and are really called; everything else is simulated.
    isSimulated: (tool) => tool.source !== "mcp",
    // A live MCP result is cut to this size before it reaches the stream, the database and the model.
    resultMaxChars: mcpResultMaxChars(process.env),
    execute: async (tool, args) => {
      const record = records.get(tool.name);
      if (!record?.sourceRef || !record.meta?.mcpName) return { error: `${tool.name} has no live backend.` };
      // A parameter the call leaves out gets the catalog override's default, as the model was shown (as in the MCP gateway).
      const filled = { ...tool.argumentDefaults, ...((args ?? {}) as Record<string, unknown>) };
      return callLiveTool({ db, catalogId, request, options, conversationId }, record as LiveToolRecord, filled);
    },
    search: async (query, maxResults, toolCallId) => {
      const result = await runToolSearchCall(db, catalogId, { ...request, conversationId, query, maxResults }, options.owner);
      searches.set(toolCallId, {
        decisionId: result.decisionId,
        query,
        path: result.path,
        found: result.tools.map((tool) => tool.name),
        rejected: result.rejected,
        selector: result.selection?.selector ?? null,
      });
      return result;
    },
  };
}

/**
 * The main model's answer, after `announce`: streamed with each step's tool set and the ToolSearch
 * verifications, and stored when it ends, also when the client stops reading.
 */
async function streamAnswer(
  context: AnswerContext,
  model: LanguageModel,
  announce: (writer: UIMessageStreamWriter<PlaygroundUIMessage>) => void,
): Promise<ReadableStream<PlaygroundChunk>> {
  const { db, request, options, conversationId } = context;
  const history = (await getConversation(db, conversationId)).history;
  /** The tools active at each step, and the ToolSearch calls by id: the data parts `withTurnData` adds. */
  const stepTools: string[][] = [];
  const searches = new Map<string, ToolSearchRecord>();
  const tools = turnToolsInput(context, history, searches);
  const stopped = new AbortController();
  const abortSignal = options.signal ? AbortSignal.any([options.signal, stopped.signal]) : stopped.signal;
  /** The model's messages of the steps that ended (a tool call, its result, the answer): what it reads back next time. */
  const stepMessages: ModelMessage[] = [];

  return createUIMessageStream<PlaygroundUIMessage>({
    onError: errorText,
    execute: async ({ writer }) => {
      announce(writer);
      const turnTools = createTurnTools(tools);
      const result = streamText({
        model,
        instructions: instructionsFor(request.agent),
        messages: await modelMessagesOf(db, conversationId),
        tools: turnTools.tools,
        prepareStep: ({ stepNumber }) => {
          const step = turnTools.prepareStep();
          stepTools[stepNumber] = step.activeTools;
          return step;
        },
        repairToolCall: turnTools.repairToolCall,
        stopWhen: stepCountIs(MAX_STEPS),
        abortSignal,
        onStepEnd: (step) => {
          stepMessages.push(...step.response.messages);
        },
      });
      // No start chunk: the client adds a continuation's parts to the answer it continues.
      writer.merge(withTurnData(result.toUIMessageStream<PlaygroundUIMessage>({ sendStart: false, onError: errorText }), stepTools, searches));
    },
    // Also when the client stops reading (Stop, a closed tab): then the model's call is aborted, and what came is stored.
    onEnd: async ({ responseMessage, isCancelled, isAborted, finishReason }) => {
      if (isCancelled) stopped.abort();
      const parts = responseMessage.parts.filter((part) => part.type !== "data-preselection");
      const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
      await appendMessage(db, conversationId, {
        role: "assistant",
        content: text,
        details: { modelMessages: stepMessages, parts, finishReason: isCancelled || isAborted ? "aborted" : (finishReason ?? null) },
      });
    },
  });
}

/**
 * One playground exchange, as an AI SDK UI message stream: a new user message gets a preselection
 * first (a `data-preselection` part); then, when a main model is configured, its answer streams with
 * its tool calls, each step's tool set and the ToolSearch verifications as `data-*` parts. Tools with
 * no live backend are simulated: the run stops at their call, and the client supplies the result
 * (the SDK's client-side tool output), which arrives as `toolResults` in the next request.
 *
 * `options.owner`: who a new conversation belongs to (lib/auth/policy.ts principalKey).
 * `options.upstreamDetails`: whether a failing MCP server's own words (its stderr, an upstream
 * answer) may reach this caller; only team admins see them, everyone else learns that it failed.
 * `options.signal`: the request's, aborted when the client goes away. Then, or when the client
 * stops reading (Stop in the page aborts the fetch), the main model's call is aborted: no tokens
 * are spent on an answer nobody reads. What was streamed until then is stored.
 */
export async function playTurn(db: Db, catalogId: string, request: PlaygroundRequest, options: PlayOptions): Promise<ReadableStream<PlaygroundChunk>> {
  checkExchange(request);
  const { conversationId, turn, seen } = request.message
    ? await startTurn(db, catalogId, request, request.message, options.owner)
    : await continueTurn(db, catalogId, request.conversationId!, request.toolResults!);

  const conversation = await getConversation(db, conversationId, catalogId);
  if (request.model !== conversation.model || request.agent !== conversation.agent) {
    await updateConversation(db, conversation.id, { model: request.model, agent: request.agent, mode: request.mode ?? null, flags: request.flags ?? [] });
  }
  /** The conversation first (only the client needs it), then a new message's preselection. */
  const announce = (writer: UIMessageStreamWriter<PlaygroundUIMessage>) => {
    writer.write({ type: "data-conversation", data: { conversationId: conversation.id }, transient: true });
    if (request.message) writer.write({ type: "data-preselection", data: turn });
  };
  const main = mainModelFromEnv(process.env);
  if (!main) return createUIMessageStream<PlaygroundUIMessage>({ execute: ({ writer }) => announce(writer) });

  // A continuation (tool results) reads the catalog afresh: it may have changed since the turn began.
  const context = { db, catalogId, request, options, conversationId: conversation.id, turn, seen: seen ?? (await readTurnView(db, catalogId, request)) };
  return streamAnswer(context, main.model, announce);
}
