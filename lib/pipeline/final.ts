import type { FinalTool, PipelineTool, StageResult } from "./types";

/**
 * Stage 8: the definitions handed to the model. Every stage filters or maps in place, so the
 * catalog's order survives; keeping it stable keeps the provider's prompt cache warm.
 */
export function finalize(tools: PipelineTool[]): StageResult<FinalTool> {
  const final = tools.map(
    (tool): FinalTool => ({
      name: tool.name,
      summary: tool.summary,
      description: tool.description,
      inputSchema: tool.inputSchema,
      source: tool.source,
      tags: tool.tags,
      needsApproval: tool.needsApproval === true,
    }),
  );
  return { tools: final, removed: [], changed: [] };
}
