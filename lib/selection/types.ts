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
}

/** Anything that ranks a fixed set of candidates against a conversation. */
export interface ToolRanker {
  readonly size: number;
  rank(messages: ConversationMessage[], k: number): RankedTool[];
}
