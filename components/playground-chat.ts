import { APICallError, type DynamicToolUIPart, lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import type { SimulatedToolMetadata } from "@/lib/ai/turn-tools";
import type { PlaygroundExchange, PlaygroundUIMessage, SimulatedResult, TurnDetails } from "@/lib/playground/messages";

type Part = PlaygroundUIMessage["parts"][number];

/**
 * Where a chat request failed: the network (the request or its stream never arrived: nothing was
 * answered), the server (it failed, a 5xx), the server refusing it (a 4xx, e.g. a bad setting or a
 * rate limit), or the main model (the stream carried the model's error).
 */
type ChatFailureKind = "network" | "server" | "refused" | "model";

export interface ChatFailure {
  kind: ChatFailureKind;
  message: string;
}

/** How browsers word a fetch that never reached the server or lost its connection mid-stream. */
const NETWORK_ERROR = /failed to fetch|networkerror|network error|load failed|network connection was lost/i;

/** The API's own message in a refused request's body, else the error's. */
function apiMessage(error: APICallError): string {
  try {
    return JSON.parse(error.responseBody ?? "").error.message ?? error.message;
  } catch {
    return error.message.startsWith("<") ? `status ${error.statusCode ?? "unknown"}` : error.message;
  }
}

/** What went wrong in the chat, named by where it went wrong. */
export function describeChatError(error: Error): ChatFailure {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ?? 0;
    if (status >= 500 || status === 0) return { kind: "server", message: `Server error (${status || "no status"}): ${apiMessage(error)}` };
    return { kind: "refused", message: `Refused by the server (${status}): ${apiMessage(error)}` };
  }
  if (error.name === "TypeError" && NETWORK_ERROR.test(error.message)) {
    return {
      kind: "network",
      message: "Network error: the server could not be reached, or the connection dropped before the answer came. Retry sends the message again.",
    };
  }
  return { kind: "model", message: `Main model error: ${error.message}` };
}

/** The chat without its last turn (its user message and what followed): what a resent message replaces. */
export function withoutLastTurn(messages: PlaygroundUIMessage[]): PlaygroundUIMessage[] {
  const last = messages.findLastIndex((message) => message.role === "user");
  return last < 0 ? messages : messages.slice(0, last);
}

/** A stored message as the conversation API answers it. */
interface StoredRow {
  id: number;
  role: string;
  content: string;
  details: unknown;
}

/** One user message and the answer to it, of every exchange until the next message. */
export interface ChatTurn {
  key: string;
  message: string;
  details?: TurnDetails;
  answer?: PlaygroundUIMessage;
  /** Its answer was stopped before it ended (Stop, or a tab closed mid-answer). */
  stopped: boolean;
}

const textOf = (message: PlaygroundUIMessage) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");

/** The metadata of a call the client answers (a simulated tool's), with the placeholder result it offers. */
export function simulatedCall(part: Part): SimulatedToolMetadata | undefined {
  return part.type === "dynamic-tool" && part.toolMetadata?.simulated === true ? (part.toolMetadata as SimulatedToolMetadata) : undefined;
}

/** The simulated calls of an answer that wait for a result. */
export function pendingSimulatedCalls(answer: PlaygroundUIMessage | undefined): DynamicToolUIPart[] {
  return (answer?.parts ?? []).filter(
    (part): part is DynamicToolUIPart => part.type === "dynamic-tool" && part.state === "input-available" && simulatedCall(part) !== undefined,
  );
}

/** The results supplied here for the simulated calls of the last answer's last step. */
function simulatedResults(messages: PlaygroundUIMessage[]): SimulatedResult[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return [];
  const lastStep = last.parts.slice(last.parts.findLastIndex((part) => part.type === "step-start") + 1);
  return lastStep.flatMap((part) =>
    part.type === "dynamic-tool" && part.state === "output-available" && simulatedCall(part)
      ? [{ toolCallId: part.toolCallId, toolName: part.toolName, output: typeof part.output === "string" ? part.output : JSON.stringify(part.output) }]
      : [],
  );
}

/** useChat's `sendAutomaticallyWhen`: every call of the last step has its result, and some were supplied here. */
export function simulatedResultsComplete({ messages }: { messages: PlaygroundUIMessage[] }): boolean {
  return lastAssistantMessageIsCompleteWithToolCalls({ messages }) && simulatedResults(messages).length > 0;
}

/** What a playground request carries of the chat: its new message under the message's id as its key, or the results of the simulated calls. */
export function exchangeOf(messages: PlaygroundUIMessage[]): PlaygroundExchange {
  const last = messages.at(-1);
  return last?.role === "user" ? { message: textOf(last), messageKey: last.id } : { toolResults: simulatedResults(messages) };
}

/**
 * What sending `text` after the failed exchange sends instead of a new message: the same words (a
 * Retry, or the failed message sent again from the composer) keep the failed message's key, so the
 * server, which may have stored the message before the request failed, stores it once. Other words
 * are a new message (undefined: sent as the chat's own).
 */
export function resentExchange(failed: PlaygroundExchange | undefined, text: string): PlaygroundExchange | undefined {
  return failed?.message === text && failed.messageKey !== undefined ? { message: text, messageKey: failed.messageKey } : undefined;
}

export function turnsOf(messages: PlaygroundUIMessage[]): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      turns.push({ key: message.id, message: textOf(message), stopped: false });
      continue;
    }
    const turn = turns.at(-1);
    if (!turn || message.role !== "assistant") continue;
    turn.answer = message;
    turn.details = message.parts.find((part) => part.type === "data-preselection")?.data;
    turn.stopped = message.metadata?.stopped === true;
  }
  return turns;
}

/**
 * A stored conversation as the chat's messages: each user message, then one answer holding the
 * turn's preselection and the parts of every exchange of the turn, the results supplied for its
 * simulated calls filled in, and marked stopped when its last part was. An answer stored before the
 * playground streamed UI messages keeps its text.
 */
export function uiMessagesOf(stored: StoredRow[]): PlaygroundUIMessage[] {
  const messages: PlaygroundUIMessage[] = [];
  for (const row of stored) {
    if (row.role === "user") {
      messages.push({ id: `user-${row.id}`, role: "user", parts: [{ type: "text", text: row.content }] });
      messages.push({ id: `answer-${row.id}`, role: "assistant", parts: row.details ? [{ type: "data-preselection", data: row.details as TurnDetails }] : [] });
      continue;
    }
    const answer = messages.at(-1);
    if (!answer) continue;
    const details = (row.details ?? {}) as { parts?: Part[]; simulatedResults?: SimulatedResult[]; finishReason?: string | null };
    if (row.role === "assistant") {
      answer.parts.push(...(details.parts ?? (row.content ? [{ type: "text" as const, text: row.content, state: "done" as const }] : [])));
      // The server stores an answer cut short (Stop, a closed tab) as aborted: the turn's last answer says whether it ended.
      answer.metadata = { stopped: details.finishReason === "aborted" };
    }
    const results = new Map((details.simulatedResults ?? []).map((result) => [result.toolCallId, result.output]));
    answer.parts = answer.parts.map((part): Part => {
      const output = part.type === "dynamic-tool" ? results.get(part.toolCallId) : undefined;
      if (part.type !== "dynamic-tool" || output === undefined) return part;
      return {
        type: "dynamic-tool",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        toolMetadata: part.toolMetadata,
        state: "output-available",
        input: part.input,
        output,
      };
    });
  }
  return messages;
}
