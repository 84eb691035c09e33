import { useCallback, useEffect, useState } from "react";

/**
 * The Tools page's selection: tools picked by name (a checkbox per row, shift-click for a range of
 * the loaded rows), or every tool matching the filters ("select all N matching"), however many
 * pages that is: then the server finds them, so rows never loaded are part of it too.
 */
export type ToolSelection = { kind: "names"; names: ReadonlySet<string>; anchor?: number } | { kind: "matching"; total: number };

export const NO_SELECTION: ToolSelection = { kind: "names", names: new Set() };

/** How many tools the selection holds. */
export function selectionCount(selection: ToolSelection): number {
  return selection.kind === "matching" ? selection.total : selection.names.size;
}

export function isSelected(selection: ToolSelection, name: string): boolean {
  return selection.kind === "matching" || selection.names.has(name);
}

/**
 * The selection after a row's checkbox was set to `on`: with shift, every loaded row between the
 * last one clicked and this one takes that state too. Unticking a row of an "all matching"
 * selection keeps the loaded rows but that one.
 */
export function clickRow(selection: ToolSelection, loaded: readonly string[], index: number, on: boolean, shift: boolean): ToolSelection {
  const names = new Set(selection.kind === "matching" ? loaded : selection.names);
  const anchor = selection.kind === "names" ? selection.anchor : undefined;
  const [from, to] = shift && anchor !== undefined ? [Math.min(anchor, index), Math.max(anchor, index)] : [index, index];
  for (let at = from; at <= to && at < loaded.length; at++) {
    if (on) names.add(loaded[at]);
    else names.delete(loaded[at]);
  }
  return { kind: "names", names, anchor: index };
}

/** The header's checkbox: every loaded row, or none. */
export function toggleLoaded(selection: ToolSelection, loaded: readonly string[]): ToolSelection {
  const all = loaded.length > 0 && loaded.every((name) => isSelected(selection, name));
  return all ? NO_SELECTION : { kind: "names", names: new Set(loaded) };
}

/** Which tools a bulk request is about: the names, or the filters they match (the table's, without its sort). */
export function bulkSubject(selection: ToolSelection, filters: Record<string, string>): { names: string[] } | { matching: Record<string, string> } {
  if (selection.kind === "names") return { names: [...selection.names] };
  const matching = Object.fromEntries(Object.entries(filters).filter(([key, value]) => key !== "sort" && value));
  return { matching };
}

/** The selection, emptied whenever `resetKey` (the filters) changes: a new search starts with nothing picked. */
export function useToolSelection(resetKey: string) {
  const [selection, setSelection] = useState<ToolSelection>(NO_SELECTION);
  // biome-ignore lint/correctness/useExhaustiveDependencies: resetKey is what empties the selection, though the effect does not read it
  useEffect(() => setSelection(NO_SELECTION), [resetKey]);
  const clear = useCallback(() => setSelection(NO_SELECTION), []);
  return { selection, setSelection, clear };
}
