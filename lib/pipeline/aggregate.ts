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
    if (!tool.enabled) {
      removed.push({ name: tool.name, reason: "disabled in the catalog" });
      continue;
    }
    if (!tool.registered) {
      removed.push({ name: tool.name, reason: `not registered (${tool.source} source unavailable)` });
      continue;
    }
    // One hash lookup instead of has() then add(): this loop runs over the whole catalog.
    const before = seen.size;
    seen.add(tool.name);
    if (seen.size === before) removed.push({ name: tool.name, reason: "another tool earlier in the catalog has the same name" });
    else kept.push(tool);
  }
  return { tools: kept, removed, changed: [] };
}
