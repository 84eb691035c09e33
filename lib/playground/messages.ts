import type { UIMessage } from "ai";
import type { ToolSearchResult } from "../selection/tool-search";
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
  /** The client's key of the message (PlaygroundExchange.messageKey), when it gave one. */
  messageKey?: string;
}

/** A ToolSearch call of the main model, as the registry verified it (the reasons the model is not told). */
export interface ToolSearchRecord {
  decisionId: string;
  query: string;
  path: ToolSearchResult["path"];
  found: string[];
  rejected: Rejection[];
  selector: string | null;
}

/** The playground's own parts of an AI SDK UI message stream, beside the model's text and tool parts. */
export type PlaygroundDataParts = {
  /** Sent transiently first: the conversation the exchange belongs to (a new message may start one). */
  conversation: { conversationId: string };
  /** A new message's preselection and the turn's tool set. */
  preselection: TurnDetails;
  /** Right after each step's start: the tools the model has at that step. */
  "tool-set": { activeTools: string[] };
  /** Right after a ToolSearch call's output, with the call's id as the part's id. */
  "tool-search": ToolSearchRecord;
};

/** What the playground keeps about a message beside its parts: an answer read back from storage says whether it was stopped. */
interface PlaygroundMetadata {
  stopped?: boolean;
}

export type PlaygroundUIMessage = UIMessage<PlaygroundMetadata, PlaygroundDataParts>;

/** One playground request: a new message, or the results of the simulated calls it ended at. */
export interface PlaygroundExchange {
  message?: string;
  /**
   * The client's key of the message. A message sent again under the key of the conversation's last
   * message (a Retry after a failed request: the server may have stored it before failing) is that
   * message, not a new one: it is preselected again, never stored twice.
   */
  messageKey?: string;
  toolResults?: SimulatedResult[];
}

export interface SimulatedResult {
  toolCallId: string;
  toolName: string;
  output: string;
}
