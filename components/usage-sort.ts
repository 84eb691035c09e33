import type { UsageFigures } from "@/lib/usage/usage-stats";

/** The usage table's columns, in order; each sorts its rows. */
export const USAGE_COLUMNS = [
  { key: "name", label: "Name" },
  { key: "calls", label: "Calls" },
  { key: "errors", label: "Errors" },
  { key: "refused", label: "Refused" },
  { key: "timeout", label: "Timeouts" },
  { key: "upstream", label: "Upstream errors" },
  { key: "p50Ms", label: "p50" },
  { key: "p95Ms", label: "p95" },
  { key: "p99Ms", label: "p99" },
  { key: "offered", label: "Offered" },
  { key: "calledWhenOffered", label: "Called when offered" },
  { key: "foundBySearch", label: "Found by ToolSearch" },
] as const;

export type UsageColumn = (typeof USAGE_COLUMNS)[number]["key"];

export interface UsageSort {
  column: UsageColumn;
  descending: boolean;
}

export const DEFAULT_USAGE_SORT: UsageSort = { column: "calls", descending: true };

export function columnValue(row: UsageFigures, column: UsageColumn): string | number | null {
  if (column === "refused" || column === "timeout" || column === "upstream") return row.errorsByKind[column];
  return row[column];
}

/** The rows in the sort's order; a row without a latency comes last either way, ties by name. */
export function sortFigures(rows: readonly UsageFigures[], sort: UsageSort): UsageFigures[] {
  const direction = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = columnValue(a, sort.column);
    const y = columnValue(b, sort.column);
    if (x === null || y === null) return x === y ? a.name.localeCompare(b.name) : x === null ? 1 : -1;
    const order = typeof x === "string" ? x.localeCompare(String(y)) : x - (y as number);
    return order !== 0 ? order * direction : a.name.localeCompare(b.name);
  });
}

/** A click on a column's header: the same column turns around; another starts with its busiest (names: A to Z). */
export function nextSort(current: UsageSort, column: UsageColumn): UsageSort {
  if (current.column === column) return { column, descending: !current.descending };
  return { column, descending: column !== "name" };
}

export const formatMs = (ms: number | null) => (ms === null ? "–" : ms >= 1_000 ? `${(ms / 1_000).toFixed(2)} s` : `${ms} ms`);
