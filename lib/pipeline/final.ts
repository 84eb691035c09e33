import { derivedFromFrozen } from "../tools/frozen";
import type { FinalTool, PipelineTool, StageResult } from "./types";

// A frozen tool (a cached catalog state's, see freezeCatalogState) always yields the same final
// definition, so it is made once and shared by every list that hands the tool over unchanged.
const finalOf = new WeakMap<PipelineTool, FinalTool>();

function toFinal(tool: PipelineTool): FinalTool {
  return {
    name: tool.name,
    summary: tool.summary,
    description: tool.description,
    inputSchema: tool.inputSchema,
    source: tool.source,
    tags: tool.tags,
    needsApproval: tool.needsApproval === true,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.argumentDefaults ? { argumentDefaults: tool.argumentDefaults } : {}),
  };
}

/**
 * Stage 8: the definitions handed to the model. Every stage filters or maps in place, so the
 * catalog's order survives; keeping it stable keeps the provider's prompt cache warm.
 */
export function finalize(tools: PipelineTool[]): StageResult<FinalTool> {
  const final = tools.map((tool) => derivedFromFrozen(finalOf, tool, toFinal));
  return { tools: final, removed: [], changed: [] };
}
