import { heldBackReason } from "../tools/pinning";
import type { StageResult, PipelineTool, ToolNote } from "./types";

/**
 * Stage 1: everything the catalog enables, whose source has it registered (and that this instance
 * can reach, see Tool.unavailableHere) and whose definition is the one an editor approved (MCP
 * tools, see lib/tools/pinning.ts). Names are unique within a catalog (the registry enforces it),
 * so no duplicate check is spent here.
 */
export function aggregate(tools: readonly PipelineTool[]): StageResult {
  const kept: PipelineTool[] = [];
  const removed: ToolNote[] = [];
  for (const tool of tools) {
    if (!tool.enabled) removed.push({ name: tool.name, reason: "disabled in the catalog" });
    else if (!tool.registered) removed.push({ name: tool.name, reason: notRegistered(tool) });
    else if (tool.heldBack) removed.push({ name: tool.name, reason: heldBackReason(tool.heldBack) });
    else kept.push(tool);
  }
  return { tools: kept, removed, changed: [] };
}

const notRegistered = (tool: PipelineTool) => `not registered (${tool.source} source unavailable${tool.unavailableHere ? " on this instance" : ""})`;
