import type { StageResult, PipelineTool, ToolNote } from "./types";

/**
 * Stage 1: everything the catalog enables and whose source is currently registered. Names must
 * be unique in what a provider receives, so a later tool reusing a name is dropped.
 */
export function aggregate(tools: PipelineTool[]): StageResult {
  const kept: PipelineTool[] = [];
  const removed: ToolNote[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!tool.enabled) removed.push({ name: tool.name, reason: "disabled in the catalog" });
    else if (!tool.registered) removed.push({ name: tool.name, reason: `not registered (${tool.source} source unavailable)` });
    else if (seen.has(tool.name)) removed.push({ name: tool.name, reason: "another tool earlier in the catalog has the same name" });
    else {
      seen.add(tool.name);
      kept.push(tool);
    }
  }
  return { tools: kept, removed, changed: [] };
}
