import type { FinalTool } from "../pipeline/types";
import type { SelectorCandidate } from "./types";

/** What a selector may know of visible tools: names and text, never the schemas themselves. */
export function toCandidates(tools: FinalTool[]): SelectorCandidate[] {
  return tools.map((tool) => ({
    name: tool.name,
    summary: tool.summary,
    description: tool.description,
    tags: tool.tags,
    parameterNames: Object.keys(tool.inputSchema.properties ?? {}),
  }));
}
