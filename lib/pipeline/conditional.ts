import type { PipelineContext, PipelineTool, StageResult, ToolNote } from "./types";

/** Stage 4: tools offered only in one agent mode or behind a feature flag. */
export function applyConditions(tools: PipelineTool[], ctx: PipelineContext): StageResult {
  const flags = new Set(ctx.flags);
  const kept: PipelineTool[] = [];
  const removed: ToolNote[] = [];
  for (const tool of tools) {
    const { mode, flag } = tool.requires;
    if (mode !== undefined && mode !== ctx.mode) {
      removed.push({ name: tool.name, reason: `only offered in ${mode} mode (current mode: ${ctx.mode})` });
    } else if (flag !== undefined && !flags.has(flag)) {
      removed.push({ name: tool.name, reason: `only offered with the feature flag "${flag}", which is off` });
    } else {
      kept.push(tool);
    }
  }
  return { tools: kept, removed, changed: [] };
}
