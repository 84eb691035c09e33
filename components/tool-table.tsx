"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { fetchToolPage, queryKeys } from "./api-client";
import { useCan } from "./catalog-access";
import { LoadFailure } from "./page-problems";
import { useSettledToolFilters, useToolFilters } from "./tool-filters";
import { useBulkChange } from "./tool-bulk";
import { ToolBulkBar } from "./tool-bulk-bar";
import { ToolRowsTable } from "./tool-rows";
import { bulkSubject, useToolSelection } from "./tool-selection";
import { ToolTableToolbar } from "./tool-table-toolbar";
import { useLoadMore } from "./virtual-rows";

/**
 * The catalog's tools, searched, filtered and sorted on the server (all in the URL), a page at a
 * time; editors select tools and change them together (ToolBulkBar).
 */
export function ToolTable({ catalogId }: { catalogId: string }) {
  const [filters, setFilters] = useToolFilters();
  const searched = useSettledToolFilters(filters);
  const pages = useInfiniteQuery({
    queryKey: queryKeys.toolPages(catalogId, searched),
    queryFn: ({ pageParam, signal }) => fetchToolPage(catalogId, searched, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
  const { data, error, isPending, hasNextPage, isFetchingNextPage, isPlaceholderData } = pages;
  const tools = data?.pages.flatMap((page) => page.tools) ?? [];
  const first = data?.pages[0];
  // With the "changed by its source" filter: when each loaded tool was last changed.
  const sourceChanges: Record<string, string> = Object.assign({}, ...(data?.pages.map((page) => page.sourceChanges) ?? []));
  const loadMore = useLoadMore(pages);
  const filterKey = JSON.stringify(searched);
  // A new search or filter empties the selection; another order keeps it.
  const { selection, setSelection, clear } = useToolSelection(JSON.stringify({ ...searched, sort: "" }));
  const bulk = useBulkChange(catalogId, clear);
  const canEdit = useCan("write");

  return (
    <div>
      <ToolTableToolbar catalogId={catalogId} facets={first?.facets} />
      {error && !data ? (
        <LoadFailure what="the tools" error={error} onRetry={() => pages.refetch()} />
      ) : isPending || !first ? (
        <div className="panel empty">Loading tools…</div>
      ) : (
        <>
          <p className="muted small" data-testid="tool-count" aria-live="polite">
            Showing {first.total.toLocaleString("en")} of {first.facets.catalogTotal.toLocaleString("en")} tools
            {isPlaceholderData && <span className="faint"> · searching…</span>}
          </p>
          {canEdit && (
            <ToolBulkBar
              catalogId={catalogId}
              selection={selection}
              total={first.total}
              pending={bulk.isPending}
              onSelectAllMatching={() => setSelection({ kind: "matching", total: first.total })}
              onClear={clear}
              onAction={(request) => bulk.mutate({ ...request, ...bulkSubject(selection, { ...searched }) })}
            />
          )}
          {error && <LoadFailure what="more tools" error={error} kept="The tools loaded are kept below." onRetry={() => pages.fetchNextPage()} />}
          {tools.length === 0 ? (
            <div className="panel empty" data-testid="tools-empty">
              <strong>No tools match</strong>
              {first.facets.catalogTotal > 0 && (
                <button type="button" className="ghost" onClick={() => setFilters(null)}>
                  Clear filters
                </button>
              )}
            </div>
          ) : (
            <ToolRowsTable
              catalogId={catalogId}
              tools={tools}
              sourceChanges={sourceChanges}
              stale={isPlaceholderData}
              filterKey={filterKey}
              selection={selection}
              onSelect={setSelection}
              onNearEnd={loadMore}
              more={hasNextPage ? { pending: isFetchingNextPage, label: "Load more tools", testId: "tools-loading-more" } : undefined}
            />
          )}
        </>
      )}
    </div>
  );
}
