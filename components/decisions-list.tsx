"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { parseAsString, useQueryStates } from "nuqs";
import { useState } from "react";
import type { DecisionSummary } from "@/db/queries/decisions";
import { isGatewayRequest } from "@/lib/selection/types";
import { getJson } from "./api-client";
import { resultSummary } from "./decision-detail";
import { type ConversationOption, DecisionFilterBar, type DecisionFilters } from "./decision-filters";
import { useLastGood } from "./last-good";
import { LoadFailure } from "./page-problems";
import { useLoadMore, VirtualRows } from "./virtual-rows";
import { LocalTime } from "./local-time";

/** The filters the URL keeps, by their key there ("" = any; "1" = on); kept by nuqs, so a choice shows at once and the URL follows. */
const anyValue = parseAsString.withDefault("");
const decisionFilterParsers = {
  q: anyValue,
  conversation: anyValue,
  kind: anyValue,
  path: anyValue,
  selector: anyValue,
  outcome: anyValue,
  rejected: anyValue,
  fallback: anyValue,
  tool: anyValue,
};

/** One page of decisions, newest first; `nextCursor` is there while older ones remain (the API pages with a cursor). */
interface DecisionPage {
  decisions: DecisionSummary[];
  nextCursor?: string | null;
}

function fetchDecisions(catalogId: string, filters: DecisionFilters, cursor: string | undefined, signal: AbortSignal): Promise<DecisionPage> {
  const query = new URLSearchParams();
  if (cursor) query.set("cursor", cursor);
  if (filters.conversation) query.set("conversationId", filters.conversation);
  for (const key of ["q", "kind", "path", "selector", "outcome", "tool"] as const) if (filters[key]) query.set(key, filters[key]);
  for (const key of ["rejected", "fallback"] as const) if (filters[key] === "1") query.set(key, "1");
  return getJson<DecisionPage>(`/api/catalogs/${encodeURIComponent(catalogId)}/decisions?${query.toString()}`, signal);
}

export function DecisionsList({ catalogId, conversations, selectors }: { catalogId: string; conversations: ConversationOption[]; selectors: string[] }) {
  const [filters, setFilters] = useQueryStates(decisionFilterParsers, { scroll: false });
  const pages = useInfiniteQuery({
    queryKey: ["decisions", catalogId, filters],
    queryFn: ({ pageParam, signal }) => fetchDecisions(catalogId, filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // The last list stays on screen while other filters load, and when they fail.
    placeholderData: keepPreviousData,
  });
  const { data, error, isPending, isPlaceholderData, hasNextPage, isFetchingNextPage, refetch, fetchNextPage } = pages;
  const shown = useLastGood(data, !!data && !isPlaceholderData);
  const decisions = shown?.pages.flatMap((page) => page.decisions);
  const loadMore = useLoadMore(pages);

  const filtered = Object.values(filters).some(Boolean);

  return (
    <div className="stack">
      <DecisionFilterBar
        filters={filters}
        conversations={conversations}
        selectors={selectors}
        filtered={filtered}
        setParam={(key, value) => setFilters({ [key]: value })}
        onClear={() => setFilters(null)}
      />
      {error && !decisions ? (
        <LoadFailure what="decisions" error={error} onRetry={() => refetch()} />
      ) : isPending || !decisions ? (
        <div className="panel empty">Loading decisions…</div>
      ) : decisions.length === 0 ? (
        <div className="panel empty" data-testid="decisions-empty">
          <strong>{filtered ? "No decisions match these filters" : "No decisions yet"}</strong>
          {filtered
            ? "Try fewer filters."
            : "Every preselection and ToolSearch call (from the playground, the HTTP API or the MCP gateway) and every tool call through the MCP gateway is logged here, with what it saw, chose and rejected."}
        </div>
      ) : (
        <>
          <p className="muted small" data-testid="decision-count">
            {decisions.length} decision{decisions.length === 1 ? "" : "s"}
            {hasNextPage ? " loaded (more as you scroll)" : ""}, newest first
          </p>
          {error && (
            <LoadFailure
              what={data ? "more decisions" : "the decisions for these filters"}
              error={error}
              kept={data ? "Those loaded are kept below." : "Below is the last list loaded, for the filters before."}
              onRetry={() => (data ? fetchNextPage() : refetch())}
            />
          )}
          <DecisionTable catalogId={catalogId} decisions={decisions} onNearEnd={loadMore} hasMore={hasNextPage} loadingMore={isFetchingNextPage} />
        </>
      )}
    </div>
  );
}

/** The loaded decisions, rendered only as they scroll into view. */
function DecisionTable({
  catalogId,
  decisions,
  onNearEnd,
  hasMore,
  loadingMore,
}: {
  catalogId: string;
  decisions: DecisionSummary[];
  onNearEnd: () => void;
  hasMore: boolean;
  loadingMore: boolean;
}) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  return (
    <div className="table-wrap virtual-scroll" ref={setScroller}>
      <table data-testid="decision-table" className="decision-table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Message / query</th>
            <th>Kind / path</th>
            <th>Model / agent</th>
            <th>Selector</th>
            <th title="What was selected (preselection), found (ToolSearch), or what became of a gateway call">Outcome</th>
            <th>Rejected</th>
            <th>Latency</th>
            <th>
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <VirtualRows
            count={decisions.length}
            scrollElement={scroller}
            columns={9}
            estimateSize={58}
            onNearEnd={onNearEnd}
            more={hasMore ? { pending: loadingMore, label: "Load older decisions", testId: "decisions-loading-more" } : undefined}
            renderRow={(index, measure) => (
              <DecisionRow key={decisions[index].id} catalogId={catalogId} decision={decisions[index]} index={index} measure={measure} />
            )}
          />
        </tbody>
      </table>
    </div>
  );
}

function DecisionRow({
  catalogId,
  decision,
  index,
  measure,
}: {
  catalogId: string;
  decision: DecisionSummary;
  index: number;
  measure: (node: Element | null) => void;
}) {
  return (
    <tr ref={measure} data-index={index} data-testid={`decision-row-${decision.id}`} data-kind={decision.kind}>
      <td className="small mono">
        <LocalTime iso={decision.createdAt} />
      </td>
      <td className="decision-asked">
        <div className="decision-asked-text" data-testid="decision-asked" title={decision.asked ?? undefined}>
          {decision.asked ?? <span className="faint">—</span>}
        </div>
      </td>
      <td>
        <span className={`badge kind-${decision.kind}`}>{decision.kind}</span> <span className="mono small">{decision.path}</span>
      </td>
      <td className="mono small">
        {decision.model}
        <br />
        <span className="muted">{decision.agent}</span>
      </td>
      <td className="small">
        {decision.selector ?? <span className="faint">{isGatewayRequest(decision.kind) ? "none" : "none (exact)"}</span>}
        {decision.fallback && (
          <span className="badge warn" title={`${decision.fallback.from}: ${decision.fallback.cause}`} data-testid="fallback-badge">
            {" "}
            fallback
          </span>
        )}
      </td>
      <td>
        <span data-testid="result-count">{resultSummary(decision)}</span>
        <ChosenNames decision={decision} />
      </td>
      <td data-testid="rejected-count">
        {decision.rejected.length > 0 ? <span className="badge off">{decision.rejected.length}</span> : <span className="faint">0</span>}
      </td>
      <td className="small">{decision.latencyMs.toFixed(1)} ms</td>
      <td>
        <Link href={`/catalogs/${catalogId}/decisions/${decision.id}`} prefetch={false} data-testid={`open-decision-${decision.id}`}>
          Details
        </Link>
      </td>
    </tr>
  );
}

/** The first few tools a selection chose or found, by name. */
function ChosenNames({ decision }: { decision: DecisionSummary }) {
  const result = (decision.result ?? {}) as { selected?: { name: string }[]; tools?: string[] };
  const names = decision.kind === "preselect" ? (result.selected ?? []).map((tool) => tool.name) : decision.kind === "tool-search" ? (result.tools ?? []) : [];
  if (names.length === 0) return null;
  const shown = names.slice(0, CHOSEN_SHOWN);
  return (
    <div className="mono small muted" title={names.join(", ")}>
      {shown.join(", ")}
      {names.length > shown.length && ` +${names.length - shown.length}`}
    </div>
  );
}

const CHOSEN_SHOWN = 3;
