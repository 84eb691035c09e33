"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { fetchToolPage, queryKeys } from "./api-client";
import { LoadFailure } from "./page-problems";
import { useSettledToolFilters, useToolFilters } from "./tool-filters";
import { ToolRowsTable } from "./tool-rows";
import { ToolTableToolbar } from "./tool-table-toolbar";
import { useLoadMore } from "./virtual-rows";

/** The catalog's tools, searched and filtered on the server (the filters in the URL), a page at a time. */
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
              filterKey={JSON.stringify(searched)}
              onNearEnd={loadMore}
              more={hasNextPage ? { pending: isFetchingNextPage, label: "Load more tools", testId: "tools-loading-more" } : undefined}
            />
          )}
        </>
      )}
    </div>
  );
}
