import "server-only";
import { stepCountIs, streamText, type ModelMessage } from "ai";
import type { Db } from "@/db/client";
import type { ToolRecord } from "@/db/queries/tools";
import { appendMessage, getConversation, listMessages, setMessageDetails, updateConversation } from "@/db/queries/conversations";
import { mainModelFromEnv } from "@/lib/ai/models";
import { createTurnTools } from "@/lib/ai/turn-tools";
import { ToolshedError } from "@/lib/errors";
import { computeToolList, type CatalogState } from "@/lib/pipeline/tool-list";
import { simulatedPlaceholder, type PlaygroundEvent, type TurnDetails } from "@/lib/playground/events";
import { TOOL_SEARCH_NAME } from "@/lib/selection/tool-search-definition";
import { registryView, type RegistryView } from "@/lib/selection/verify";
import { runPreselection, runToolSearchCall, type TurnRequest } from "./selection";
import { McpSourceError, mcpResultMaxChars } from "@/lib/sources/mcp";
import { callMcpServerTool, catalogState } from "./sources";

const MAX_STEPS = 8;

export interface PlaygroundRequest extends TurnRequest {
  message?: string;
  toolResults?: { toolCallId: string; toolName: string; output: string }[];
  k?: number;
}

/** The conversation as the main model reads it: user text, and the model's own stored steps. */
function modelMessagesOf(db: Db, conversationId: string): ModelMessage[] {
  return listMessages(db, conversationId).flatMap((message): ModelMessage[] => {
    const stored = (message.details as { modelMessages?: ModelMessage[] } | null)?.modelMessages;
    if (stored) return stored;
    return message.role === "user" ? [{ role: "user", content: message.content }] : [];
  });
}

async function readCatalog(db: Db, catalogId: string, request: TurnRequest): Promise<{ state: CatalogState; view: RegistryView }> {
  const state = await catalogState(db, catalogId);
  const list = computeToolList(state, { model: request.model, agent: request.agent, provider: request.provider, mode: request.mode, flags: request.flags });
  return { state, view: registryView(state.tools, list) };
}

/** The turn a continuation belongs to: the tool set chosen at its user message. */
function latestTurn(db: Db, conversationId: string): TurnDetails {
  const turn = listMessages(db, conversationId)
    .filter((message) => message.role === "user")
    .at(-1)?.details as TurnDetails | undefined;
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

/**
 * One playground exchange, as a stream of NDJSON events: a new user message gets a preselection
 * first; then, when a main model is configured, its answer streams with its tool calls. Tools with
 * no live backend are simulated: the run stops at their call and the person supplies the result,
 * which arrives as `toolResults` in the next request.
 */
/**
 * `options.upstreamDetails`: whether a failing MCP server's own words (its stderr, an upstream
 * answer) may reach this caller; only team admins see them, everyone else learns that it failed.
 * `options.signal`: the request's, aborted when the client goes away. Then, or when the client
 * stops reading (Stop in the page cancels the stream), the main model's call is aborted: no
 * tokens are spent on an answer nobody reads.
 */
export async function playTurn(
  db: Db,
  catalogId: string,
  request: PlaygroundRequest,
  options: { upstreamDetails: boolean; signal?: AbortSignal },
): Promise<ReadableStream<Uint8Array>> {
  if (!request.message && !request.toolResults?.length) {
    throw new ToolshedError("bad_request", "Send a message, or the results of the pending tool calls.", "message");
  }
  if (request.toolResults?.length && !request.conversationId) {
    throw new ToolshedError("bad_request", "Tool results belong to a conversation: give its conversationId.", "conversationId");
  }
  const events: PlaygroundEvent[] = [];
  let conversationId = request.conversationId;
  let turn: TurnDetails;
  /** The catalog and what this model and agent see, as the preselection of a new message already read them. */
  let seen: { state: CatalogState; view: RegistryView } | undefined;

  if (request.message) {
    const messages = conversationId ? listMessages(db, getConversation(db, conversationId, catalogId).id) : [];
    const history = messages
      .filter((message) => message.content && (message.role === "user" || message.role === "assistant"))
      .map((message) => ({ role: message.role as "user" | "assistant", content: message.content }));
    const preselection = await runPreselection(db, catalogId, { ...request, messages: [...history, { role: "user", content: request.message }] });
    conversationId = preselection.conversationId;
    seen = { state: preselection.state, view: preselection.view };
    turn = {
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
    };
    // Recording the decision stored the message in the conversation (the decision refers to it there): the turn goes beside it.
    if (preselection.storedMessageId !== undefined) setMessageDetails(db, conversationId, preselection.storedMessageId, turn);
    else appendMessage(db, conversationId, { role: "user", content: request.message, details: turn });
    events.push({ type: "preselection", conversationId, turn });
  } else {
    const conversation = getConversation(db, conversationId!, catalogId);
    turn = latestTurn(db, conversation.id);
    const toolMessage: ModelMessage = {
      role: "tool",
      content: request.toolResults!.map((result) => ({
        type: "tool-result" as const,
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        output: { type: "text" as const, value: result.output },
      })),
    };
    appendMessage(db, conversation.id, { role: "tool", content: "", details: { modelMessages: [toolMessage], simulatedResults: request.toolResults } });
    for (const result of request.toolResults!)
      events.push({ type: "tool-result", toolCallId: result.toolCallId, toolName: result.toolName, output: result.output, simulated: true });
  }

  const conversation = getConversation(db, conversationId!, catalogId);
  if (request.model !== conversation.model || request.agent !== conversation.agent) {
    updateConversation(db, conversation.id, { model: request.model, agent: request.agent, mode: request.mode ?? null, flags: request.flags ?? [] });
  }
  const main = mainModelFromEnv(process.env);
  const encoder = new TextEncoder();
  const line = (event: PlaygroundEvent) => encoder.encode(`${JSON.stringify(event)}\n`);

  if (!main) {
    return new ReadableStream({
      start(controller) {
        for (const event of events) controller.enqueue(line(event));
        controller.enqueue(line({ type: "finish", reason: "no-main-model", activeTools: turn.toolSet.map((entry) => entry.name) }));
        controller.close();
      },
    });
  }

  // A continuation (tool results) reads the catalog afresh: it may have changed since the turn began.
  seen ??= await readCatalog(db, catalogId, request);
  const { state, view } = seen;
  const records = new Map((state.tools as ToolRecord[]).map((tool) => [tool.name, tool]));
  const history = getConversation(db, conversation.id).history;
  const turnSet = [...turn.toolSet.filter((entry) => entry.origin !== "entry").map((entry) => entry.name), ...history];
  // A live MCP result is cut to this size before it reaches the stream, the database and the model.
  const resultMaxChars = mcpResultMaxChars(process.env);
  const cancelled = new AbortController();
  const abortSignal = options.signal ? AbortSignal.any([options.signal, cancelled.signal]) : cancelled.signal;

  return new ReadableStream({
    async start(controller) {
      const recorded: PlaygroundEvent[] = [];
      /** Nothing more can be sent once the client cancelled the stream. */
      const send = (event: PlaygroundEvent) => {
        if (!cancelled.signal.aborted) controller.enqueue(line(event));
      };
      /** Streams an event; all but text deltas are also kept, to redraw the turn later. */
      const emit = (event: PlaygroundEvent) => {
        if (event.type !== "text-delta") recorded.push(event);
        send(event);
      };
      for (const event of events) send(event);
      const turnTools = createTurnTools({
        view,
        turnSet,
        // MCP tools have a live backend and are really called; everything else is simulated.
        isSimulated: (tool) => tool.source !== "mcp",
        resultMaxChars,
        execute: async (tool, args) => {
          const record = records.get(tool.name);
          if (!record?.sourceRef || !record.meta?.mcpName) return { error: `${tool.name} has no live backend.` };
          try {
            return await callMcpServerTool(db, catalogId, record.sourceRef, record.meta.mcpName, (args ?? {}) as Record<string, unknown>);
          } catch (error) {
            if (options.upstreamDetails || !(error instanceof McpSourceError)) throw error;
            throw new Error(`The MCP server "${record.sourceRef}" failed (${error.failure}); team admins see the details on the Sources page.`);
          }
        },
        search: async (query, maxResults) => {
          const result = await runToolSearchCall(db, catalogId, { ...request, conversationId: conversation.id, query, maxResults });
          emit({
            type: "tool-search",
            decisionId: result.decisionId,
            query,
            path: result.path,
            found: result.tools.map((tool) => tool.name),
            rejected: result.rejected,
            selector: result.selection?.selector ?? null,
          });
          return result;
        },
      });
      let text = "";
      /** Set when the call was aborted: the response messages of the steps that ended before. */
      let beforeAbort: ModelMessage[] | undefined;
      try {
        const result = streamText({
          model: main.model,
          instructions: instructionsFor(request.agent),
          messages: modelMessagesOf(db, conversation.id),
          tools: turnTools.tools,
          prepareStep: turnTools.prepareStep,
          repairToolCall: turnTools.repairToolCall,
          stopWhen: stepCountIs(MAX_STEPS),
          abortSignal,
          onAbort: ({ steps }) => {
            beforeAbort = steps.flatMap((step) => step.response.messages);
          },
        });
        for await (const part of result.fullStream) {
          if (part.type === "text-delta") {
            text += part.text;
            emit({ type: "text-delta", text: part.text });
          } else if (part.type === "tool-call") {
            const tool = view.visible.get(part.toolName);
            emit({
              type: "tool-call",
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
              simulated: part.toolName !== TOOL_SEARCH_NAME && view.visible.get(part.toolName)?.source !== "mcp",
              active: turnTools.activeTools().includes(part.toolName),
              placeholder: tool ? simulatedPlaceholder(tool) : undefined,
            });
          } else if (part.type === "tool-result" && part.toolName !== TOOL_SEARCH_NAME) {
            emit({ type: "tool-result", toolCallId: part.toolCallId, toolName: part.toolName, output: JSON.stringify(part.output, null, 2), simulated: false });
          } else if (part.type === "tool-error") {
            emit({ type: "tool-error", toolCallId: part.toolCallId, toolName: part.toolName, error: String(part.error) });
          } else if (part.type === "finish-step") {
            emit({ type: "step", activeTools: turnTools.activeTools() });
          } else if (part.type === "error") {
            emit({ type: "error", message: part.error instanceof Error ? part.error.message : String(part.error) });
          }
        }
        // Every step's messages (a tool call, its result, the answer), not only the last step's.
        const [modelMessages, finishReason] = beforeAbort ? [beforeAbort, "aborted"] : await Promise.all([result.responseMessages, result.finishReason]);
        emit({ type: "finish", reason: finishReason === "tool-calls" ? "awaiting-tool-results" : finishReason, activeTools: turnTools.activeTools() });
        appendMessage(db, conversation.id, { role: "assistant", content: text, details: { modelMessages, events: recorded } });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        emit({ type: "error", message });
        appendMessage(db, conversation.id, { role: "assistant", content: text, details: { events: recorded } });
      } finally {
        if (!cancelled.signal.aborted) controller.close();
      }
    },
    cancel() {
      cancelled.abort();
    },
  });
}
