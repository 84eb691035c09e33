import type { FinalTool } from "../pipeline/types";
import type { TurnToolEntry } from "../selection/turn";
import type { RankedTool } from "../selection/types";
import type { Rejection } from "../selection/verify";

/** What the playground keeps about a turn's preselection, on the turn's user message. */
export interface TurnDetails {
  decisionId: string;
  toolSet: TurnToolEntry[];
  selected: RankedTool[];
  rejected: Rejection[];
  dropped: Rejection[];
  selector: string;
  fallback: { from: string; cause: string } | null;
  candidates: string[];
  tokens: { toolSet: number; visible: number; candidates: number };
  latencyMs: number;
}

/** One line of the playground's NDJSON stream; the same events are stored to redraw a conversation. */
export type PlaygroundEvent =
  | { type: "preselection"; conversationId: string; turn: TurnDetails }
  | { type: "text-delta"; text: string }
  | {
      type: "tool-call";
      toolCallId: string;
      toolName: string;
      input: unknown;
      /** False only for tools with a live backend (MCP): the playground runs nothing on the server machine. */
      simulated: boolean;
      /** False when the model called a tool that was not in its tool set at that step. */
      active: boolean;
      placeholder?: string;
    }
  | { type: "tool-search"; decisionId: string; query: string; path: "exact" | "semantic"; found: string[]; rejected: Rejection[]; selector: string | null }
  | { type: "tool-result"; toolCallId: string; toolName: string; output: string; simulated: boolean }
  | { type: "tool-error"; toolCallId: string; toolName: string; error: string }
  | { type: "step"; activeTools: string[] }
  | { type: "finish"; reason: string; activeTools: string[] }
  | { type: "error"; message: string };

/**
 * A stand-in result for a simulated tool call, from what the tool's description says it returns,
 * marked as simulated so nobody mistakes it for a real answer.
 */
export function simulatedPlaceholder(tool: Pick<FinalTool, "name" | "description">): string {
  const returns = tool.description.split(/(?<=[.!?])\s+/).find((sentence) => /\breturns?\b/i.test(sentence));
  return JSON.stringify({ simulated: true, tool: tool.name, result: returns ? `(${returns.trim()})` : "(no output described)" }, null, 2);
}
