import type { ToolList } from "../pipeline/tool-list";
import type { FinalTool } from "../pipeline/types";
import type { Tool } from "../tools/types";

/** A tool name the registry check turned away, and why. */
export interface Rejection {
  name: string;
  reason: string;
}

/**
 * The registry as one model and agent see it right now: every tool of the catalog, the ones the
 * pipeline leaves visible, and for each removed one the stage and reason that removed it.
 */
export interface RegistryView {
  all: ReadonlyMap<string, Tool>;
  visible: ReadonlyMap<string, FinalTool>;
  removedBy: ReadonlyMap<string, string>;
}

// Views are derived from a catalog's tool array and a tool list, both shared between requests
// while their catalog state is cached (see freezeCatalogState): for frozen ones, each view is
// built once. Anything not frozen may still change, and is read afresh.
const toolsByName = new WeakMap<readonly Tool[], ReadonlyMap<string, Tool>>();
const views = new WeakMap<object, { allTools: readonly Tool[]; view: RegistryView }>();

/** A catalog's tools by name; for a frozen (cached) tool array, made once and shared. */
export function toolsByNameOf(allTools: readonly Tool[]): ReadonlyMap<string, Tool> {
  let all = Object.isFrozen(allTools) ? toolsByName.get(allTools) : undefined;
  if (all === undefined) {
    all = new Map(allTools.map((tool) => [tool.name, tool]));
    if (Object.isFrozen(allTools)) toolsByName.set(allTools, all);
  }
  return all;
}

export function registryView(allTools: Tool[], list: Pick<ToolList, "final" | "trace">): RegistryView {
  const shared = Object.isFrozen(allTools) && Object.isFrozen(list);
  const known = shared ? views.get(list) : undefined;
  if (known !== undefined && known.allTools === allTools) return known.view;
  const all = toolsByNameOf(allTools);
  const removedBy = new Map<string, string>();
  for (const entry of list.trace) {
    for (const note of entry.removed) if (!removedBy.has(note.name)) removedBy.set(note.name, `removed at ${entry.stage}: ${note.reason}`);
  }
  const view: RegistryView = {
    all,
    visible: new Map(list.final.map((tool) => [tool.name, tool])),
    removedBy,
  };
  if (shared) views.set(list, { allTools, view });
  return view;
}

/** Why a name is not visible; undefined when it is. */
export function rejectionReason(name: string, view: RegistryView): string | undefined {
  if (view.visible.has(name)) return undefined;
  const tool = view.all.get(name);
  // Deleted, disabled and source-gone tools are all "not registered" (SPEC §1); the rest says which.
  if (!tool) return "not registered: not in the catalog (deleted, or a name the selector invented)";
  if (!tool.registered) return "not registered: its source is unavailable";
  if (!tool.enabled) return "not registered: disabled in the catalog";
  return view.removedBy.get(name) ?? "not visible to this model and agent";
}

/**
 * Checks names against the live registry and the pipeline: only visible tools pass, each once, in
 * the given order; every other name is rejected with its reason. Both preselection and ToolSearch
 * go through here, so nothing else can hand a model a tool.
 */
export function verifyNames(names: string[], view: RegistryView): { passed: FinalTool[]; rejected: Rejection[] } {
  const passed: FinalTool[] = [];
  const rejected: Rejection[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const reason = rejectionReason(name, view);
    if (reason === undefined) passed.push(view.visible.get(name)!);
    else rejected.push({ name, reason });
  }
  return { passed, rejected };
}
