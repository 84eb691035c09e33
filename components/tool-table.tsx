"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { updateToolAction } from "@/app/catalogs/[catalog]/tools/actions";
import { useCan } from "./catalog-access";
import type { ToolRecord } from "@/db/queries/tools";
import { TOOL_SOURCES } from "@/lib/tools/types";
import { fetchToolPage, queryKeys, type ToolPage } from "./api-client";
import { LoadFailure } from "./page-problems";
import { ToolSearchBox, useSettledToolFilters, useToolFilters } from "./tool-filters";
import { ToolImport } from "./tool-import";
import { useLoadMore, VirtualRows } from "./virtual-rows";
import { LocalTime } from "./local-time";

export function ToolTable({ catalogId }: { catalogId: string }) {
  const canEdit = useCan("write");
  const [filters, setFilters] = useToolFilters();
  const searched = useSettledToolFilters(filters);
  const searchBox = useRef<HTMLInputElement>(null);
  // State, not a ref: the rows' virtualizer must see the element once it exists (see VirtualRows).
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);

  useEffect(() => {
    const focusSearch = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key === "/" && !["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) && !target.isContentEditable) {
        event.preventDefault();
        searchBox.current?.focus();
      }
    };
    window.addEventListener("keydown", focusSearch);
    return () => window.removeEventListener("keydown", focusSearch);
  }, []);

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
  const sourceCounts = new Map(first?.facets.sources.map((entry) => [entry.source, entry.count]));
  const tagOptions = first?.facets.tags ?? [];
  // With the "changed by its source" filter: when each loaded tool was last changed.
  const sourceChanges: Record<string, string> = Object.assign({}, ...(data?.pages.map((page) => page.sourceChanges) ?? []));

  const loadMore = useLoadMore(pages);

  // A new search starts at the top of the list.
  const filterKey = JSON.stringify(searched);
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey is what triggers the scroll, though the effect does not read it
  useEffect(() => {
    scroller?.scrollTo({ top: 0 });
  }, [filterKey, scroller]);

  return (
    <div>
      <div className="toolbar">
        <ToolSearchBox inputRef={searchBox} />
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
        {filters.changedIn && (
          <span className="badge" data-testid="changed-in-filter">
            Only the tools changed at revision {filters.changedIn}
            <button type="button" className="ghost small-button" aria-label="Show every tool again" onClick={() => setFilters({ changedIn: null })}>
              ×
            </button>
          </span>
        )}
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
            <div className={`table-wrap virtual-scroll${isPlaceholderData ? " stale" : ""}`} ref={setScroller} data-testid="tool-scroller">
              <table data-testid="tool-table" className="fixed-layout cards-on-phone">
                <colgroup>
                  <col style={{ width: 60 }} />
                  <col style={{ width: "28%" }} />
                  <col style={{ width: 120 }} />
                  <col />
                  <col style={{ width: "18%" }} />
                </colgroup>
                <thead>
                  <tr>
                    <th>On</th>
                    <th>Name</th>
                    <th>Source</th>
                    <th>Summary</th>
                    <th>Tags</th>
                  </tr>
                </thead>
                <tbody>
                  <VirtualRows
                    count={tools.length}
                    scrollElement={scroller}
                    columns={5}
                    estimateSize={45}
                    onNearEnd={loadMore}
                    more={hasNextPage ? { pending: isFetchingNextPage, label: "Load more tools", testId: "tools-loading-more" } : undefined}
                    renderRow={(index, measure) => (
                      <ToolRow
                        key={tools[index].name}
                        catalogId={catalogId}
                        tool={tools[index]}
                        changedAt={sourceChanges[tools[index].name]}
                        index={index}
                        measure={measure}
                      />
                    )}
                  />
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </div>
  );
}

/** `changedAt`: when its source last changed the tool's definition, when the table is filtered by that. */
function ToolRow({
  catalogId,
  tool,
  changedAt,
  index,
  measure,
}: {
  catalogId: string;
  tool: ToolRecord;
  changedAt?: string;
  index: number;
  measure: (node: Element | null) => void;
}) {
  const toggle = useEnabledToggle(catalogId);
  return (
    <tr className={tool.enabled ? undefined : "disabled"} data-testid={`tool-row-${tool.name}`} data-index={index} ref={measure}>
      <td>
        <EnabledSwitch tool={tool} onToggle={(enabled) => toggle.mutate({ name: tool.name, enabled })} />
      </td>
      <td className="name">
        <Link href={`/catalogs/${catalogId}/tools/${encodeURIComponent(tool.name)}`} prefetch={false}>
          {tool.name}
        </Link>
        {!tool.registered && (
          <span className="badge off" style={{ marginLeft: 6 }}>
            unregistered
          </span>
        )}
        {tool.heldBack && (
          <span
            className="badge warn"
            style={{ marginLeft: 6 }}
            title="Its MCP server's definition waits for an editor's review (above): no model gets it"
            data-testid={`held-back-${tool.name}`}
          >
            held back
          </span>
        )}
        {changedAt && (
          <span
            className="badge warn"
            style={{ marginLeft: 6 }}
            title="Its source changed its definition; the tool's page shows the change"
            data-testid={`source-changed-${tool.name}`}
          >
            changed <LocalTime iso={changedAt} />
          </span>
        )}
      </td>
      <td>
        <span className={`badge ${tool.source}`}>{tool.source}</span>
        {tool.source === "mcp" && tool.sourceRef && <div className="faint small">{tool.sourceRef}</div>}
      </td>
      <td className="summary">{tool.summary}</td>
      <td>
        {tool.tags.map((tag) => (
          <span key={tag} className="tag">
            {tag}
          </span>
        ))}
      </td>
    </tr>
  );
}

export function EnabledSwitch({ tool, onToggle }: { tool: ToolRecord; onToggle: (enabled: boolean) => void }) {
  const canEdit = useCan("write");
  return (
    <button
      type="button"
      role="switch"
      className="switch"
      disabled={!canEdit}
      title={canEdit ? undefined : "Editors can enable and disable tools"}
      aria-checked={tool.enabled}
      aria-label={`${tool.name} enabled`}
      onClick={() => onToggle(!tool.enabled)}
      data-testid={`toggle-${tool.name}`}
    />
  );
}

/**
 * Enables or disables a tool, showing the change at once in the full list and in every loaded page
 * of the table, and rolling back if the server refuses; then both are read again.
 */
export function useEnabledToggle(catalogId: string) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const key = queryKeys.tools(catalogId);
  return useMutation({
    mutationFn: async ({ name, enabled }: { name: string; enabled: boolean }) => {
      const result = await updateToolAction(catalogId, name, { enabled });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onMutate: async ({ name, enabled }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueriesData({ queryKey: key });
      const flip = (tool: ToolRecord) => (tool.name === name ? { ...tool, enabled } : tool);
      queryClient.setQueryData<ToolRecord[]>(key, (tools) => tools?.map(flip));
      queryClient.setQueryData<ToolRecord>(queryKeys.tool(catalogId, name), (tool) => tool && flip(tool));
      queryClient.setQueriesData<InfiniteData<ToolPage>>({ queryKey: queryKeys.toolPages(catalogId) }, (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, tools: page.tools.map(flip) })) } : data,
      );
      return { previous };
    },
    onError: (error, _vars, context) => {
      for (const [queryKey, data] of context?.previous ?? []) queryClient.setQueryData(queryKey, data);
      toast.error(error.message);
    },
    onSuccess: (tool) => {
      toast.success(`${tool.name} ${tool.enabled ? "enabled" : "disabled"}`);
      router.refresh();
    },
    onSettled: (tool) => {
      // The prefix covers the full list and the table's pages.
      void queryClient.invalidateQueries({ queryKey: key });
      if (tool) void queryClient.invalidateQueries({ queryKey: queryKeys.audit(catalogId, tool.name) });
    },
  });
}
