import { generateText, jsonSchema, stepCountIs, tool, toolSearch, type ToolSet } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { SelectorCandidate } from "../lib/selection/types";

const NO_USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/**
 * Ranks with the AI SDK's own default tool-search matching, run for real: the catalog becomes
 * deferred tools beside `toolSearch()` without a custom `search`, and a mock model (no network)
 * calls toolSearch with the query. The SDK's default matcher is not exported, so going through
 * `generateText` is the way to use it unchanged.
 */
export function createAiSdkDefaultSearch(candidates: readonly SelectorCandidate[], maxResults: number) {
  const catalog: ToolSet = {};
  for (const candidate of candidates) {
    catalog[candidate.name] = tool({
      description: candidate.description ?? candidate.summary,
      inputSchema: jsonSchema({ type: "object", properties: {} }),
      deferLoading: true,
      execute: async () => null,
    });
  }
  const searchToolName = "__toolSearch";
  const tools: ToolSet = { ...catalog, [searchToolName]: toolSearch({ maxResults }) };

  return async function search(query: string): Promise<string[]> {
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: "tool-call", toolCallId: "search", toolName: searchToolName, input: JSON.stringify({ query }) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: NO_USAGE,
        warnings: [],
      }),
    });
    const result = await generateText({ model, prompt: query, tools, stopWhen: stepCountIs(1) });
    const output = result.steps[0]?.toolResults[0]?.output as { tools: Array<{ name: string }> } | undefined;
    if (!output) throw new Error("the AI SDK tool search returned no result");
    return output.tools.map((found) => found.name);
  };
}
