"use client";

import { debounce, parseAsString, useQueryStates } from "nuqs";
import { useEffect, useState, type RefObject } from "react";
import { TOOL_SOURCES } from "@/lib/tools/types";
import type { ToolPage, ToolPageFilters } from "./api-client";

/** The orders the tools table offers (the column headers set the same `sort`). */
const SORT_CHOICES = [
  ["", "Registration order"],
  ["name", "Name, A to Z"],
  ["-name", "Name, Z to A"],
  ["source", "Source"],
  ["enabled", "Enabled first"],
  ["-enabled", "Disabled first"],
  ["summary", "Summary"],
  ["tags", "Tags"],
] as const;

/** How long typing rests before the search goes to the URL and the server. */
export const SEARCH_DEBOUNCE_MS = 200;

const anyValue = parseAsString.withDefault("");
const toolFilterParsers = { q: anyValue, source: anyValue, state: anyValue, tag: anyValue, changedSince: anyValue, changedIn: anyValue, sort: anyValue };

/**
 * The tools table's filters, kept by nuqs: what is typed or picked is the state at once, and the
 * URL follows (the search's after a pause), so no keystroke is lost while the URL catches up.
 */
export function useToolFilters() {
  return useQueryStates(toolFilterParsers, { scroll: false });
}

/** `value`, once it has stopped changing for `delayMs`: what the server is asked for. */
function useSettledValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** The filters to search with: the search text once typing rests, the others at once. */
export function useSettledToolFilters(filters: ToolPageFilters): ToolPageFilters {
  const q = useSettledValue(filters.q, SEARCH_DEBOUNCE_MS);
  return { ...filters, q };
}

export function ToolSearchBox({ inputRef }: { inputRef: RefObject<HTMLInputElement | null> }) {
  const [{ q }, setFilters] = useToolFilters();
  return (
    <input
      ref={inputRef}
      type="search"
      placeholder="Search name, summary, tags   ( / )"
      aria-label="Search tools"
      value={q}
      onChange={(event) => setFilters({ q: event.target.value }, { limitUrlUpdates: debounce(SEARCH_DEBOUNCE_MS) })}
      onKeyDown={(event) => {
        if (event.key === "Enter") setFilters({ q: event.currentTarget.value });
      }}
      data-testid="tool-search"
    />
  );
}

/**
 * The table's pickers: source and tag with how many tools have each (`facets`), state, changed
 * since a day, and the "changed at revision" filter an import's "show" sets.
 */
export function ToolFilterPickers({ facets }: { facets: ToolPage["facets"] | undefined }) {
  const [filters, setFilters] = useToolFilters();
  const sourceCounts = new Map(facets?.sources.map((entry) => [entry.source, entry.count]));
  const tagOptions = facets?.tags ?? [];
  return (
    <>
      <select
        aria-label="Filter by source"
        value={filters.source || "all"}
        onChange={(event) => setFilters({ source: event.target.value === "all" ? "" : event.target.value })}
        data-testid="source-filter"
      >
        <option value="all">All sources</option>
        {TOOL_SOURCES.map((name) => (
          <option key={name} value={name}>
            {name} ({sourceCounts.get(name) ?? 0})
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by state"
        value={filters.state || "all"}
        onChange={(event) => setFilters({ state: event.target.value === "all" ? "" : event.target.value })}
        data-testid="state-filter"
      >
        <option value="all">Enabled and disabled</option>
        <option value="enabled">Enabled only</option>
        <option value="disabled">Disabled only</option>
      </select>
      {(tagOptions.length > 0 || filters.tag) && (
        <select aria-label="Filter by tag" value={filters.tag} onChange={(event) => setFilters({ tag: event.target.value })} data-testid="tag-filter">
          <option value="">Any tag</option>
          {filters.tag && !tagOptions.some((option) => option.tag === filters.tag) && <option value={filters.tag}>{filters.tag}</option>}
          {tagOptions.map((option) => (
            <option key={option.tag} value={option.tag}>
              {option.tag} ({option.count})
            </option>
          ))}
        </select>
      )}
      <label
        className="row small"
        title="Only the tools whose MCP server, plugin or skill changed their summary, description or input schema since this day (UTC)"
      >
        Changed by its source since
        <input
          type="date"
          aria-label="Changed by its source since"
          value={filters.changedSince}
          onChange={(event) => setFilters({ changedSince: event.target.value })}
          data-testid="changed-since-filter"
        />
      </label>
      <select aria-label="Sort by" value={filters.sort} onChange={(event) => setFilters({ sort: event.target.value })} data-testid="tool-sort">
        {SORT_CHOICES.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {filters.changedIn && (
        <span className="badge" data-testid="changed-in-filter">
          Only the tools changed at revision {filters.changedIn}
          <button type="button" className="ghost small-button" aria-label="Show every tool again" onClick={() => setFilters({ changedIn: null })}>
            ×
          </button>
        </span>
      )}
    </>
  );
}
