import { applyPatchTool } from "./apply_patch";
import { bashTool } from "./bash";
import { editTool } from "./edit";
import { globTool } from "./glob";
import { grepTool } from "./grep";
import { lspTool } from "./lsp";
import { planTool } from "./plan";
import { readTool } from "./read";
import { skillTool } from "./skill";
import { taskTool } from "./task";
import { todoreadTool } from "./todoread";
import { todowriteTool } from "./todowrite";
import type { BuiltinTool } from "./types";
import { webfetchTool } from "./webfetch";
import { websearchTool } from "./websearch";
import { writeTool } from "./write";

export type { BuiltinTool } from "./types";
export { SKILLS_PLACEHOLDER } from "./skill";
export { SUBAGENTS_PLACEHOLDER } from "./task";

// In the order of SPEC §1, conditional tools last, so lists, diffs and exports stay stable.
const TOOLS_IN_ORDER = [
  readTool,
  writeTool,
  editTool,
  grepTool,
  globTool,
  bashTool,
  taskTool,
  todowriteTool,
  todoreadTool,
  webfetchTool,
  websearchTool,
  skillTool,
  applyPatchTool,
  planTool,
  lspTool,
] as const;

export type BuiltinToolName = (typeof TOOLS_IN_ORDER)[number]["name"];

export const BUILTIN_TOOLS: readonly BuiltinTool[] = TOOLS_IN_ORDER;

export const BUILTIN_TOOL_NAMES: readonly BuiltinToolName[] = TOOLS_IN_ORDER.map((tool) => tool.name);

const builtinNameSet: ReadonlySet<string> = new Set(BUILTIN_TOOL_NAMES);

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return builtinNameSet.has(name);
}
