import { screenEach, type ToolScreen } from "./screening";
import type { PipelineContext, PipelineTool, StageResult } from "./types";

/**
 * Stage 3: tools needing web search stay only where the provider searches natively or the
 * catalog has a search service configured. An unknown provider is assumed not to search.
 */
export function applyProviderCapabilities(tools: PipelineTool[], ctx: PipelineContext): StageResult {
  return screenEach(tools, providerCapabilitiesScreen(ctx));
}

/** Stage 3 for one tool at a time. */
export function providerCapabilitiesScreen(ctx: PipelineContext): ToolScreen {
  const profile = ctx.providers.find((provider) => provider.id === ctx.provider);
  if (profile?.webSearch || ctx.searchServiceConfigured) return () => undefined;

  const providerLabel =
    profile !== undefined
      ? `provider "${profile.name}" has no native web search`
      : ctx.provider !== undefined
        ? `provider "${ctx.provider}" has no profile, so no native web search is assumed`
        : `the provider of ${ctx.modelId} is unknown, so no native web search is assumed`;
  const removed = { removed: `${providerLabel} and no search service is configured` };
  return (tool) => (tool.requires.capability === "web_search" ? removed : undefined);
}
