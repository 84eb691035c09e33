"use client";

import Link from "next/link";
import { useState } from "react";
import type { UsageFigures } from "@/lib/usage/usage-stats";
import { columnValue, DEFAULT_USAGE_SORT, formatMs, nextSort, sortFigures, USAGE_COLUMNS, type UsageColumn, type UsageSort } from "./usage-sort";

const LATENCY_COLUMNS = new Set<UsageColumn>(["p50Ms", "p95Ms", "p99Ms"]);

function cell(row: UsageFigures, column: UsageColumn) {
  const value = columnValue(row, column);
  if (LATENCY_COLUMNS.has(column)) return formatMs(value as number | null);
  return value;
}

/**
 * The figures of tools, servers, agents or models in a table sorted by any column (a header's
 * button; again turns it around). `linkOf` makes each name a link, e.g. to the tool's decisions.
 */
export function UsageTable({
  rows,
  nameLabel,
  testId,
  linkOf,
}: {
  rows: readonly UsageFigures[];
  nameLabel: string;
  testId: string;
  linkOf?: (name: string) => string;
}) {
  const [sort, setSort] = useState<UsageSort>(DEFAULT_USAGE_SORT);
  if (rows.length === 0) return <p className="muted small">Nothing in this window.</p>;
  return (
    <div className="table-wrap">
      <table data-testid={testId}>
        <thead>
          <tr>
            {USAGE_COLUMNS.map(({ key, label }) => (
              <th key={key} aria-sort={sort.column === key ? (sort.descending ? "descending" : "ascending") : undefined}>
                <button type="button" className="ghost small-button" onClick={() => setSort(nextSort(sort, key))} data-testid={`${testId}-sort-${key}`}>
                  {key === "name" ? nameLabel : label}
                  {sort.column === key ? (sort.descending ? " ↓" : " ↑") : ""}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sortFigures(rows, sort).map((row) => (
            <tr key={row.name} data-testid={`${testId}-row`}>
              <td className="mono small">
                {linkOf ? (
                  <Link href={linkOf(row.name)} prefetch={false} title={`The decisions about ${row.name}`}>
                    {row.name}
                  </Link>
                ) : (
                  row.name
                )}
              </td>
              {USAGE_COLUMNS.slice(1).map(({ key }) => (
                <td key={key} className="small">
                  {cell(row, key)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
