/**
 * The ToolSearch entry point as the main model sees it: the same name, description and input
 * schema whether Toolshed's playground runs the loop or an agent does with this package.
 */

export const TOOL_SEARCH_NAME = "ToolSearch";
export const TOOL_SEARCH_MAX_RESULTS = 20;

export const TOOL_SEARCH_DESCRIPTION = `Find and load tools that are not in your current tool list.

Use it when the task needs a capability none of your tools offers. Tools it returns become callable from your next step on, for the rest of the conversation.

- To load tools you know by name, pass "select:" and their exact names, comma-separated: "select:github_create_issue,slack_post_message". A query that is exactly one tool name works too.
- Otherwise describe what the tool must do, in a few words: "post a message to a Slack channel". The best matches are returned, at most max_results (default 5).

Only tools you are allowed to use are returned; the answer also lists the requested names that are not available. Do not guess tool names you have not seen: describe the need instead.`;

export const TOOL_SEARCH_INPUT_SCHEMA = {
  type: "object" as const,
  properties: {
    query: { type: "string", description: 'Exact names as "select:a,b", one exact tool name, or a short description of the needed capability.' },
    max_results: { type: "integer", minimum: 1, maximum: TOOL_SEARCH_MAX_RESULTS, description: "How many tools to return at most (default 5)." },
  },
  required: ["query"],
  additionalProperties: false,
};

/** A tool as the model reads it. */
export interface ToolDefinitionText {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * What the main model gets back from ToolSearch: full definitions of what passed, and the names
 * that did not. It is not told why (hidden by a rule, disabled, never existed): a tool it may not
 * use stays invisible, down to whether it exists.
 */
export interface ToolSearchAnswer {
  path: "exact" | "semantic";
  tools: ToolDefinitionText[];
  /** Names that did not pass, without the registry's reasons: those are for people, in the decision log. */
  unavailable: string[];
  note: string;
}

/** A ToolSearch result, from Toolshed's API or its own loop: what passed and what did not. */
export interface FoundTools {
  path: "exact" | "semantic";
  tools: readonly ToolDefinitionText[];
  rejected: readonly { name: string; reason: string }[];
}

export function toToolSearchAnswer<Result extends FoundTools>(result: Result): ToolSearchAnswer {
  return {
    path: result.path,
    tools: result.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    unavailable: result.rejected.map((rejection) => rejection.name),
    note:
      result.tools.length > 0
        ? "These tools are callable from your next step on."
        : "No tool matched that you may use; describe the need differently, or go on without one.",
  };
}

/** What the model reads when it calls a tool it does not have at this step, whether or not that tool exists. */
export function unavailableToolMessage(name: string): string {
  return `${name} is not available at this step: load it with ${TOOL_SEARCH_NAME} first (query "select:${name}"), then call it at the next step.`;
}
