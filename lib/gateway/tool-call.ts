import { z } from "zod";
import { TOOL_SEARCH_NAME } from "../selection/tool-search-definition";
import type { ToolDefinition } from "../tools/types";

/**
 * ToolCall: the MCP gateway's stable way to call a tool its list does not show. Many MCP clients
 * list a server's tools once and ignore `notifications/tools/list_changed`, and one-shot clients
 * never search in the session they call from; through this tool, which is always in the list, they
 * can call any tool this model and agent may use, ToolSearch's finds included.
 */
export const TOOL_CALL_NAME = "ToolCall";

export const toolCallInput = z.strictObject({
  name: z.string().trim().min(1, "Name the tool to call.").max(200),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

export const TOOL_CALL_DEFINITION: ToolDefinition = {
  name: TOOL_CALL_NAME,
  summary: `Call a tool ${TOOL_SEARCH_NAME} found (or any tool you may use), by its exact name, with its arguments.`,
  description: `Calls a tool ${TOOL_SEARCH_NAME} found, or any other tool you may use, by its exact name, with its arguments.

Use it when a tool ${TOOL_SEARCH_NAME} returned does not appear in your tool list. Pass the arguments the tool's input schema (as ${TOOL_SEARCH_NAME} returned it) describes. The answer is the tool's own.`,
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: `The exact name of a tool ${TOOL_SEARCH_NAME} returned.` },
      arguments: { type: "object", description: "The tool's arguments, as its input schema describes them.", additionalProperties: true },
    },
    required: ["name"],
    additionalProperties: false,
  },
};
