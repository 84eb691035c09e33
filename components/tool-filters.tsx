"use client";

import { debounce, parseAsString, useQueryStates } from "nuqs";
import { useEffect, useState, type RefObject } from "react";
import type { ToolPageFilters } from "./api-client";

/** How long typing rests before the search goes to the URL and the server. */
export const SEARCH_DEBOUNCE_MS = 200;

const anyValue = parseAsString.withDefault("");
const toolFilterParsers = { q: anyValue, source: anyValue, state: anyValue, tag: anyValue, changedSince: anyValue, changedIn: anyValue };

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
