/** What a selector needs to know about one tool: never its full schema, only names and text. */
export interface SelectorCandidate {
  name: string;
  summary: string;
  description?: string;
  tags?: string[];
  parameterNames?: string[];
  /** The parameters' descriptions and enum values, from the input schema: how a tool says what it acts on. */
  parameterText?: string;
}

export interface ConversationMessage {
  role: "user" | "assistant" | "system" | "tool";
  content: string;
}

export interface RankedTool {
  name: string;
  score: number;
  /** The part of the score learned from use (lib/selection/learned.ts), when any was. */
  learned?: number;
}

/** Anything that ranks a fixed set of candidates against a conversation. */
export interface ToolRanker {
  readonly size: number;
  rank(messages: ConversationMessage[], k: number): RankedTool[];
}

/**
 * What the decision log records: preselections, ToolSearch calls, the MCP gateway's tool calls,
 * and its reads of federated resources and gets of federated prompts (which are no tool usage).
 */
export const DECISION_KINDS = ["preselect", "tool-search", "call", "resource-read", "prompt-get"] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/** The kinds of a request the gateway answered or refused, selecting nothing: recorded on the path "call". */
const GATEWAY_REQUEST_KINDS: ReadonlySet<DecisionKind> = new Set(["call", "resource-read", "prompt-get"]);
export const isGatewayRequest = (kind: DecisionKind) => GATEWAY_REQUEST_KINDS.has(kind);

/** A federated resource read or prompt get: only recorded and shown, never counted as usage nor replayed. */
export const isFederationKind = (kind: DecisionKind): kind is "resource-read" | "prompt-get" => kind === "resource-read" || kind === "prompt-get";

/** How a decision was reached: preselection, ToolSearch's exact or semantic path, or a gateway request (a call, a read, a get). */
export const DECISION_PATHS = ["preselect", "exact", "semantic", "call"] as const;
/** What a decision came to, as the decisions list filters it: tools chosen or found (or a call answered), none, a call refused, a call failed. */
export const DECISION_OUTCOMES = ["chosen", "none", "refused", "error"] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];
export type DecisionPath = (typeof DECISION_PATHS)[number];
