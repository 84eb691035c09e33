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

/** What the decision log records: preselections, ToolSearch calls and the MCP gateway's tool calls. */
export const DECISION_KINDS = ["preselect", "tool-search", "call"] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/** How a decision was reached: preselection, ToolSearch's exact or semantic path, or a gateway call. */
export const DECISION_PATHS = ["preselect", "exact", "semantic", "call"] as const;
/** What a decision came to, as the decisions list filters it: tools chosen or found (or a call answered), none, a call refused, a call failed. */
export const DECISION_OUTCOMES = ["chosen", "none", "refused", "error"] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];
export type DecisionPath = (typeof DECISION_PATHS)[number];
