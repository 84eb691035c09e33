import type { PipelineTool, StageResult, ToolNote } from "./types";

/**
 * What a stage that looks at each tool on its own says of one tool: undefined to keep it as it
 * is, a reason to remove it, or the tool it hands on instead with the reason for the change.
 */
export type Verdict = { removed: string } | { kept: PipelineTool; changed: string } | undefined;

/** A per-tool stage made for one context: the same tool always gets the same verdict. */
export type ToolScreen = (tool: PipelineTool) => Verdict;

/** A per-tool stage run over a list: the catalog's order survives. */
export function screenEach(tools: readonly PipelineTool[], screen: ToolScreen): StageResult {
  const kept: PipelineTool[] = [];
  const removed: ToolNote[] = [];
  const changed: ToolNote[] = [];
  for (const tool of tools) {
    const verdict = screen(tool);
    if (verdict === undefined) kept.push(tool);
    else if ("removed" in verdict) removed.push({ name: tool.name, reason: verdict.removed });
    else {
      kept.push(verdict.kept);
      changed.push({ name: tool.name, reason: verdict.changed });
    }
  }
  return { tools: kept, removed, changed };
}
