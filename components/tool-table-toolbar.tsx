"use client";

import Link from "next/link";
import { type RefObject, useEffect, useRef } from "react";
import type { ToolPage } from "./api-client";
import { useCan } from "./catalog-access";
import { ToolFilterPickers, ToolSearchBox, useToolFilters } from "./tool-filters";
import { ToolImport } from "./tool-import";

/** Above the tools table: the search ("/" goes to it) and the filters, then import, export and a new tool. */
export function ToolTableToolbar({ catalogId, facets }: { catalogId: string; facets: ToolPage["facets"] | undefined }) {
  const canEdit = useCan("write");
  const [, setFilters] = useToolFilters();
  const searchBox = useRef<HTMLInputElement>(null);
  useSlashFocuses(searchBox);
  return (
    <div className="toolbar">
      <ToolSearchBox inputRef={searchBox} />
      <ToolFilterPickers facets={facets} />
      <span className="spacer" style={{ flex: 1 }} />
      {canEdit && (
        <ToolImport
          catalogId={catalogId}
          onShowImported={(revision) => setFilters({ q: null, source: null, state: null, tag: null, changedSince: null, changedIn: String(revision) })}
        />
      )}
      <a className="button" href={`/api/catalogs/${catalogId}/export`} download data-testid="export-catalog">
        Export
      </a>
      {canEdit && (
        <Link className="button primary" href={`/catalogs/${catalogId}/tools/new`} data-testid="new-tool">
          New tool
        </Link>
      )}
    </div>
  );
}

/** "/" typed outside a field focuses `input`. */
function useSlashFocuses(input: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const focusSearch = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key === "/" && !["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) && !target.isContentEditable) {
        event.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener("keydown", focusSearch);
    return () => window.removeEventListener("keydown", focusSearch);
  }, [input]);
}
