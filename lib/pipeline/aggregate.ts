import { heldBackReason } from "../tools/pinning";
import { screenEach, type Verdict } from "./screening";
import type { PipelineTool, StageResult } from "./types";

/**
 * Stage 1: everything the catalog enables, whose source has it registered (and that this instance
 * can reach, see Tool.unavailableHere) and whose definition is the one an editor approved (MCP
 * tools, see lib/tools/pinning.ts). Names are unique within a catalog (the registry enforces it),
 * so no duplicate check is spent here.
 */
export function aggregate(tools: readonly PipelineTool[]): StageResult {
  return screenEach(tools, aggregateVerdict);
}

/** Stage 1 for one tool. */
export function aggregateVerdict(tool: PipelineTool): Verdict {
  if (!tool.enabled) return { removed: "disabled in the catalog" };
  if (!tool.registered) return { removed: notRegistered(tool) };
  if (tool.heldBack) return { removed: heldBackReason(tool.heldBack) };
  return undefined;
}

const notRegistered = (tool: PipelineTool) => `not registered (${tool.source} source unavailable${tool.unavailableHere ? " on this instance" : ""})`;
