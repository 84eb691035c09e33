import { z } from "zod";
import type { ToolDefinition } from "../tools/types";

export const TOOL_SEARCH_NAME = "ToolSearch";
export const TOOL_SEARCH_MAX_RESULTS = 20;

export const toolSearchInput = z.strictObject({
  query: z.string().trim().min(1, "Say what the tool should do, or name it.").max(2_000),
  max_results: z.number().int().min(1).max(TOOL_SEARCH_MAX_RESULTS).optional(),
});

export type ToolSearchInput = z.infer<typeof toolSearchInput>;

const DESCRIPTION = `Find and load tools that are not in your current tool list.

Use it when the task needs a capability none of your tools offers. Tools it returns become callable from your next step on, for the rest of the conversation.

- To load tools you know by name, pass "select:" and their exact names, comma-separated: "select:github_create_issue,slack_post_message". A query that is exactly one tool name works too.
- Otherwise describe what the tool must do, in a few words: "post a message to a Slack channel". The best matches are returned, at most max_results (default 5).

Only tools you are allowed to use are returned; the answer also lists the requested names that are not available. Do not guess tool names you have not seen: describe the need instead.`;

/** The ToolSearch entry point as the main model sees it. */
export const TOOL_SEARCH_DEFINITION: ToolDefinition = {
  name: TOOL_SEARCH_NAME,
  summary: "Find and load tools that are not in the current tool list, by exact name or by describing the need.",
  description: DESCRIPTION,
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: 'Exact names as "select:a,b", one exact tool name, or a short description of the needed capability.' },
      max_results: { type: "integer", minimum: 1, maximum: TOOL_SEARCH_MAX_RESULTS, description: "How many tools to return at most (default 5)." },
    },
    required: ["query"],
    additionalProperties: false,
  },
};
