"use client";

import type { ReactNode } from "react";
import type { ToolSortColumn } from "@/lib/tools/bulk";
import { useToolFilters } from "./tool-filters";

/**
 * A column header of the tools table that sorts by its column: ascending, then descending, then
 * back to ascending; the order is in the URL (`sort`) with the filters. `children` sit before the label.
 */
export function ToolSortHeader({ column, label, children }: { column: ToolSortColumn; label: string; children?: ReactNode }) {
  const [{ sort }, setFilters] = useToolFilters();
  const direction = sort === column ? "ascending" : sort === `-${column}` ? "descending" : undefined;
  const next = direction === "ascending" ? `-${column}` : column;
  return (
    <th aria-sort={direction ?? "none"} scope="col">
      {children}
      <button type="button" className="sort-header" onClick={() => setFilters({ sort: next })} data-testid={`sort-${column}`}>
        {label}
        <span aria-hidden="true" className="faint">
          {direction === "ascending" ? " ▲" : direction === "descending" ? " ▼" : ""}
        </span>
      </button>
    </th>
  );
}
