import type { PipelineContext, PipelineTool, StageResult, ToolNote } from "./types";

/**
 * Stage 3: tools needing web search stay only where the provider searches natively or the
 * catalog has a search service configured. An unknown provider is assumed not to search.
 */
export function applyProviderCapabilities(tools: PipelineTool[], ctx: PipelineContext): StageResult {
  const profile = ctx.providers.find((provider) => provider.id === ctx.provider);
  if (profile?.webSearch || ctx.searchServiceConfigured) return { tools, removed: [], changed: [] };

  const providerLabel =
    profile !== undefined
      ? `provider "${profile.name}" has no native web search`
      : ctx.provider !== undefined
        ? `provider "${ctx.provider}" has no profile, so no native web search is assumed`
        : `the provider of ${ctx.modelId} is unknown, so no native web search is assumed`;
  const kept: PipelineTool[] = [];
  const removed: ToolNote[] = [];
  for (const tool of tools) {
    if (tool.requires.capability === "web_search") {
      removed.push({ name: tool.name, reason: `${providerLabel} and no search service is configured` });
    } else {
      kept.push(tool);
    }
  }
  return { tools: kept, removed, changed: [] };
}
