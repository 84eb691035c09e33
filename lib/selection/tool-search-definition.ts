import { z } from "zod";
import { TOOL_SEARCH_DESCRIPTION, TOOL_SEARCH_INPUT_SCHEMA, TOOL_SEARCH_MAX_RESULTS, TOOL_SEARCH_NAME } from "../../packages/client/src/tool-search";
import type { ToolDefinition } from "../tools/types";

// The definition the model reads is shared with the AI SDK client package, so an agent's loop and the playground's offer the same ToolSearch.
export { TOOL_SEARCH_NAME };

/** The same input as TOOL_SEARCH_INPUT_SCHEMA, checked where a ToolSearch call has no HTTP edge (the playground's own loop). */
export const toolSearchInput = z.strictObject({
  query: z.string().trim().min(1, "Say what the tool should do, or name it.").max(2_000),
  max_results: z.number().int().min(1).max(TOOL_SEARCH_MAX_RESULTS).optional(),
});

/** The ToolSearch entry point as the main model sees it. */
export const TOOL_SEARCH_DEFINITION: ToolDefinition = {
  name: TOOL_SEARCH_NAME,
  summary: "Find and load tools that are not in the current tool list, by exact name or by describing the need.",
  description: TOOL_SEARCH_DESCRIPTION,
  inputSchema: TOOL_SEARCH_INPUT_SCHEMA,
};
