import { lineageKeyOf, type ToolList } from "../pipeline/tool-list";
import { Lru } from "../tools/lru";
import { NameIndex } from "./name-index";
import type { FinalTool, TraceEntry } from "../pipeline/types";
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
// built once, and its maps by name are made from those of the catalog's and the request's latest
// view (NameIndex), so a new revision costs the tools it changed. Anything not frozen may still
// change, and is read afresh.
const toolsByName = new WeakMap<readonly Tool[], NameIndex<Tool>>();
const views = new WeakMap<object, { allTools: readonly Tool[]; view: RegistryView }>();
/** Per catalog, the latest tools by name; per catalog and request, the latest visible tools by name. */
const latestTools = new Lru<string, NameIndex<Tool>>({ maxEntries: 16 });
const latestVisible = new Lru<string, NameIndex<FinalTool>>({ maxEntries: 64 });

/** A catalog's tools by name; for a frozen (cached) tool array, made once and shared. */
export function toolsByNameOf(allTools: readonly Tool[], catalogId?: string): ReadonlyMap<string, Tool> {
  if (!Object.isFrozen(allTools)) return new Map(allTools.map((tool) => [tool.name, tool]));
  let all = toolsByName.get(allTools);
  if (all === undefined) {
    const earlier = catalogId === undefined ? undefined : latestTools.get(catalogId);
    all = earlier ? NameIndex.from(earlier, allTools) : NameIndex.of(allTools);
    toolsByName.set(allTools, all);
    if (catalogId !== undefined) latestTools.set(catalogId, all);
  }
  return all;
}

export function registryView(allTools: Tool[], list: Pick<ToolList, "final" | "trace">): RegistryView {
  const shared = Object.isFrozen(allTools) && Object.isFrozen(list);
  const known = shared ? views.get(list) : undefined;
  if (known !== undefined && known.allTools === allTools) return known.view;
  const lineage = shared ? lineageKeyOf(list as ToolList) : undefined;
  const all = toolsByNameOf(allTools, lineage?.catalogId);
  const view: RegistryView = { all, visible: visibleByName(list.final, lineage?.request), removedBy: removals(list.trace) };
  if (shared) views.set(list, { allTools, view });
  if (lineage !== undefined) viewLineages.set(view, lineage.request);
  return view;
}

const viewLineages = new WeakMap<RegistryView, string>();

/** What a shared view's derived structures are made from the latest of: its catalog and request; undefined for any other view. */
export function viewLineage(view: RegistryView): string | undefined {
  return viewLineages.get(view);
}

function visibleByName(final: readonly FinalTool[], lineage: string | undefined): ReadonlyMap<string, FinalTool> {
  if (lineage === undefined) return new Map(final.map((tool) => [tool.name, tool]));
  const earlier = latestVisible.get(lineage);
  const visible = earlier ? NameIndex.from(earlier, final) : NameIndex.of(final);
  latestVisible.set(lineage, visible);
  return visible;
}

/** Each removed tool's first removal, by name: made when first read, as only a rejection reads it. */
function removals(trace: readonly TraceEntry[]): ReadonlyMap<string, string> {
  let removedBy: Map<string, string> | undefined;
  const made = () => {
    if (removedBy === undefined) {
      removedBy = new Map();
      for (const entry of trace) {
        for (const note of entry.removed) if (!removedBy.has(note.name)) removedBy.set(note.name, `removed at ${entry.stage}: ${note.reason}`);
      }
    }
    return removedBy;
  };
  return {
    get: (name) => made().get(name),
    has: (name) => made().has(name),
    get size() {
      return made().size;
    },
    forEach: (callback, thisArg) => made().forEach(callback, thisArg),
    entries: () => made().entries(),
    keys: () => made().keys(),
    values: () => made().values(),
    [Symbol.iterator]: () => made().entries(),
  };
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
