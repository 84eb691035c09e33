import { dynamicTool, jsonSchema, NoSuchToolError, tool, type ToolCallRepairFunction, type ToolSet } from "ai";
import type { FinalTool } from "../pipeline/types";
import { DEFAULT_MCP_RESULT_MAX_CHARS, isMcpToolResult, limitMcpResult } from "../sources/mcp/result-limit";
import { TOOL_SEARCH_DEFINITION, TOOL_SEARCH_NAME, toolSearchInput } from "../selection/tool-search-definition";
import type { ToolSearchResult } from "../selection/tool-search";
import type { RegistryView } from "../selection/verify";
import { type ToolSearchAnswer, toToolSearchAnswer, unavailableToolMessage } from "../../packages/client/src/tool-search";

// The answer and the message are the AI SDK client package's, so an agent's loop and the playground's say the same.
export { type ToolSearchAnswer, toToolSearchAnswer, unavailableToolMessage };

/** What a simulated tool's calls carry as their UI parts' `toolMetadata`: whoever runs the turn supplies the result. */
export type SimulatedToolMetadata = { simulated: true; placeholder: string };

/**
 * A stand-in result for a simulated tool call, from what the tool's description says it returns,
 * marked as simulated so nobody mistakes it for a real answer.
 */
function simulatedPlaceholder(tool: Pick<FinalTool, "name" | "description">): string {
  const returns = tool.description.split(/(?<=[.!?])\s+/).find((sentence) => /\breturns?\b/i.test(sentence));
  return JSON.stringify({ simulated: true, tool: tool.name, result: returns ? `(${returns.trim()})` : "(no output described)" }, null, 2);
}

/**
 * The tools of one turn in an AI SDK loop. Every visible tool is defined (and nothing else: a tool
 * the agent may not use is never defined at all), but only the turn's tool set and what ToolSearch
 * has found so far are active at each step, via `prepareStep`. The SDK's own `toolSearch()` is not
 * used: its input has no `max_results`, its answer carries no rejections, and the registry check
 * must run in Toolshed.
 */
export function createTurnTools(input: {
  view: RegistryView;
  turnSet: string[];
  /** `toolCallId`: the model's ToolSearch call this search answers. */
  search: (query: string, maxResults: number | undefined, toolCallId: string) => Promise<ToolSearchResult>;
  execute: (tool: FinalTool, args: unknown) => Promise<unknown>;
  /**
   * Tools whose results the caller supplies later (e.g. a person types them): defined without
   * `execute`, so the SDK ends the run at their call and hands it back, with a placeholder result
   * in their metadata (`SimulatedToolMetadata`).
   */
  isSimulated?: (tool: FinalTool) => boolean;
  /** Live MCP results are cut to this many characters, with a note (TOOLSHED_MCP_RESULT_MAX_CHARS). */
  resultMaxChars?: number;
}) {
  const resultMaxChars = input.resultMaxChars ?? DEFAULT_MCP_RESULT_MAX_CHARS;
  const found = new Set<string>();
  const active = () => [...new Set([...input.turnSet.filter((name) => input.view.visible.has(name)), ...found]), TOOL_SEARCH_NAME];

  const tools: ToolSet = {};
  for (const definition of input.view.visible.values()) {
    if (input.isSimulated?.(definition)) {
      const metadata: SimulatedToolMetadata = { simulated: true, placeholder: simulatedPlaceholder(definition) };
      tools[definition.name] = dynamicTool({ description: definition.description, inputSchema: jsonSchema(definition.inputSchema), metadata });
      continue;
    }
    tools[definition.name] = dynamicTool({
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema),
      execute: async (args) => {
        // The SDK already refuses calls to inactive tools; this guard keeps that true for direct callers.
        if (!active().includes(definition.name)) return { error: unavailableToolMessage(definition.name) };
        const output = await input.execute(definition, args);
        return isMcpToolResult(output) ? limitMcpResult(output, resultMaxChars) : output;
      },
    });
  }
  tools[TOOL_SEARCH_NAME] = tool({
    description: TOOL_SEARCH_DEFINITION.description,
    inputSchema: toolSearchInput,
    execute: async ({ query, max_results }, { toolCallId }) => {
      const result = await input.search(query, max_results, toolCallId);
      for (const passed of result.tools) found.add(passed.name);
      return toToolSearchAnswer(result);
    },
  });

  /**
   * The SDK parses each call against the step's active tools; a call to any other name (a tool
   * not loaded yet, hidden from this agent, or made up) becomes a tool error whose text the model
   * reads as the call's result. Returning null keeps that error; its text becomes ours, which says
   * what to do and is the same whether the tool exists or not.
   */
  const repairToolCall: ToolCallRepairFunction<ToolSet> = async ({ toolCall, error }) => {
    if (NoSuchToolError.isInstance(error)) error.message = unavailableToolMessage(toolCall.toolName);
    return null;
  };

  return {
    tools,
    prepareStep: () => ({ activeTools: active() }),
    repairToolCall,
    /** Names active at the next step: the turn's set, what ToolSearch found, and ToolSearch itself. */
    activeTools: active,
    found: () => [...found],
  };
}
