/** Changes to many tools at once (the Tools page's selection, POST …/tools/bulk): plain rules, no I/O. */

export const TOOL_BULK_ACTIONS = ["enable", "disable", "tag", "delete", "move", "copy", "undo"] as const;
export type ToolBulkAction = (typeof TOOL_BULK_ACTIONS)[number];

/** The columns the tools table sorts by; a leading "-" sorts descending. */
export const TOOL_SORT_COLUMNS = ["name", "source", "enabled", "summary", "tags"] as const;
export type ToolSortColumn = (typeof TOOL_SORT_COLUMNS)[number];

/** How many names a bulk change lists in its summary entry and in its messages before "and N more". */
const NAMES_SHOWN = 5;

/** The action of the catalog-level audit entry that sums a bulk change up: "bulk disable", "bulk copy to ops"… */
export const BULK_ENTRY_PREFIX = "bulk ";

/** `"a", "b", "c" and 12 more`: a list of names short enough for a message. */
export function namesInWords(names: readonly string[], shown = NAMES_SHOWN): string {
  const listed = names
    .slice(0, shown)
    .map((name) => `"${name}"`)
    .join(", ");
  return names.length > shown ? `${listed} and ${(names.length - shown).toLocaleString("en")} more` : listed;
}

/** "1 tool", "12,000 tools". */
export function toolCount(count: number): string {
  return `${count.toLocaleString("en")} tool${count === 1 ? "" : "s"}`;
}

/** A tool's tags after adding `add` (at the end, once) and removing `remove`; `remove` wins over `add`. */
export function retagged(tags: readonly string[], add: readonly string[], remove: readonly string[]): string[] {
  const removed = new Set(remove);
  const kept = tags.filter((tag) => !removed.has(tag));
  for (const tag of add) if (!removed.has(tag) && !kept.includes(tag)) kept.push(tag);
  return kept;
}

/** Whether two tag lists are the same, in the same order. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag, index) => tag === b[index]);
}

/** What a bulk action did, in one sentence for the page and the audit log. */
export function describeBulk(action: Exclude<ToolBulkAction, "undo">, count: number, target?: string): string {
  const what = toolCount(count);
  switch (action) {
    case "enable":
      return `Enabled ${what}`;
    case "disable":
      return `Disabled ${what}`;
    case "tag":
      return `Retagged ${what}`;
    case "delete":
      return `Deleted ${what}`;
    case "move":
      return `Moved ${what} to catalog "${target}"`;
    case "copy":
      return `Copied ${what} to catalog "${target}"`;
  }
}

export interface SortKey {
  column: ToolSortColumn;
  descending: boolean;
}

/** The `sort` parameter ("name", "-tags") read; undefined for none or an unknown column. */
export function parseSort(sort: string | undefined): SortKey | undefined {
  if (!sort) return undefined;
  const descending = sort.startsWith("-");
  const column = (descending ? sort.slice(1) : sort) as ToolSortColumn;
  return TOOL_SORT_COLUMNS.includes(column) ? { column, descending } : undefined;
}

/** What a tool is sorted by in a column: text compared case-insensitively, enabled before disabled. */
export interface SortableTool {
  id: number;
  name: string;
  source: string;
  enabled: boolean;
  summary: string;
  tags: readonly string[];
}

function sortValue(tool: SortableTool, column: ToolSortColumn): string {
  if (column === "enabled") return tool.enabled ? "0" : "1";
  if (column === "tags") return tool.tags.join(" ").toLowerCase();
  return tool[column].toLowerCase();
}

/** The tools in the order of `key`, ties in registration (id) order; a new array. */
export function sortTools<T extends SortableTool>(tools: readonly T[], key: SortKey): T[] {
  const keyed = tools.map((tool) => ({ tool, value: sortValue(tool, key.column) }));
  const direction = key.descending ? -1 : 1;
  keyed.sort((a, b) => (a.value < b.value ? -direction : a.value > b.value ? direction : a.tool.id - b.tool.id));
  return keyed.map((entry) => entry.tool);
}
