import { screenEach, type ToolScreen } from "./screening";
import type { PipelineContext, PipelineTool, StageResult } from "./types";

/** Stage 4: tools offered only in one agent mode or behind a feature flag. */
export function applyConditions(tools: PipelineTool[], ctx: PipelineContext): StageResult {
  return screenEach(tools, conditionsScreen(ctx));
}

/** Stage 4 for one tool at a time. */
export function conditionsScreen(ctx: PipelineContext): ToolScreen {
  const flags = new Set(ctx.flags);
  return (tool) => {
    const { mode, flag } = tool.requires;
    if (mode !== undefined && mode !== ctx.mode) return { removed: `only offered in ${mode} mode (current mode: ${ctx.mode})` };
    if (flag !== undefined && !flags.has(flag)) return { removed: `only offered with the feature flag "${flag}", which is off` };
    return undefined;
  };
}
