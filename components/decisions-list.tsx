"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { parseAsString, useQueryStates } from "nuqs";
import { useState } from "react";
import type { Decision } from "@/db/queries/decisions";
import { getJson } from "./api-client";
import { resultSummary } from "./decision-detail";
import { useLastGood } from "./last-good";
import { LoadFailure } from "./page-problems";
import { useLoadMore, VirtualRows } from "./virtual-rows";
import { LocalTime } from "./local-time";

/** The filters the URL keeps, by their key there ("" = any; "1" = on); kept by nuqs, so a choice shows at once and the URL follows. */
const anyValue = parseAsString.withDefault("");
const decisionFilterParsers = { conversation: anyValue, kind: anyValue, path: anyValue, rejected: anyValue, fallback: anyValue, tool: anyValue };
type DecisionFilters = Record<keyof typeof decisionFilterParsers, string>;

export interface ConversationOption {
  id: string;
  title: string;
}

/** One page of decisions, newest first; `nextCursor` is there while older ones remain (the API pages with a cursor). */
interface DecisionPage {
  decisions: Decision[];
  nextCursor?: string | null;
}

function fetchDecisions(catalogId: string, filters: DecisionFilters, cursor: string | undefined, signal: AbortSignal): Promise<DecisionPage> {
  const query = new URLSearchParams();
  if (cursor) query.set("cursor", cursor);
  if (filters.conversation) query.set("conversationId", filters.conversation);
  for (const key of ["kind", "path", "tool"] as const) if (filters[key]) query.set(key, filters[key]);
  for (const key of ["rejected", "fallback"] as const) if (filters[key] === "1") query.set(key, "1");
  return getJson<DecisionPage>(`/api/catalogs/${encodeURIComponent(catalogId)}/decisions?${query.toString()}`, signal);
}

export function DecisionsList({ catalogId, conversations }: { catalogId: string; conversations: ConversationOption[] }) {
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

/** The filter controls; each choice goes to the URL through `setParam`. */
function DecisionFilterBar({
  filters,
  conversations,
  filtered,
  setParam,
  onClear,
}: {
  filters: DecisionFilters;
  conversations: ConversationOption[];
  filtered: boolean;
  setParam: (key: keyof DecisionFilters, value: string) => void;
  onClear: () => void;
}) {
  return (
    <div className="toolbar" data-testid="decision-filters">
      <ConversationSelect value={filters.conversation} conversations={conversations} onChange={(value) => setParam("conversation", value)} />
      <select aria-label="Kind" value={filters.kind} onChange={(event) => setParam("kind", event.target.value)} data-testid="filter-kind">
        <option value="">Every kind</option>
        <option value="preselect">Preselection only</option>
        <option value="tool-search">ToolSearch only</option>
        <option value="call">Gateway calls only</option>
      </select>
      <select aria-label="Path" value={filters.path} onChange={(event) => setParam("path", event.target.value)} data-testid="filter-path">
        <option value="">Any path</option>
        <option value="preselect">preselect</option>
        <option value="exact">exact</option>
        <option value="semantic">semantic</option>
        <option value="call">call</option>
      </select>
      <label className="row small">
        <input
          type="checkbox"
          checked={filters.rejected === "1"}
          onChange={(event) => setParam("rejected", event.target.checked ? "1" : "")}
          data-testid="filter-rejected"
        />
        With rejections
      </label>
      <label className="row small">
        <input
          type="checkbox"
          checked={filters.fallback === "1"}
          onChange={(event) => setParam("fallback", event.target.checked ? "1" : "")}
          data-testid="filter-fallback"
        />
        With fallbacks
      </label>
      {filters.tool && (
        <span className="badge row small" data-testid="filter-tool">
          Tool <span className="mono">{filters.tool}</span>
          <button type="button" className="ghost" aria-label={`Any tool, not only ${filters.tool}`} onClick={() => setParam("tool", "")}>
            ×
          </button>
        </span>
      )}
      {filtered && (
        <button type="button" className="ghost" onClick={onClear} data-testid="clear-filters">
          Clear filters
        </button>
      )}
    </div>
  );
}

/** Every conversation of the catalog, and the one the URL names even when it is not among them (so the choice still shows). */
function ConversationSelect({ value, conversations, onChange }: { value: string; conversations: ConversationOption[]; onChange: (value: string) => void }) {
  const knownConversation = !value || conversations.some((conversation) => conversation.id === value);
  return (
    <select aria-label="Conversation" value={value} onChange={(event) => onChange(event.target.value)} data-testid="filter-conversation">
      <option value="">All conversations</option>
      {!knownConversation && <option value={value}>{value}</option>}
      {conversations.map((conversation) => (
        <option key={conversation.id} value={conversation.id}>
          {conversation.title || "(untitled)"} · {conversation.id.slice(0, 8)}
        </option>
      ))}
    </select>
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
  decisions: Decision[];
  onNearEnd: () => void;
  hasMore: boolean;
  loadingMore: boolean;
}) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  return (
    <div className="table-wrap virtual-scroll" ref={setScroller}>
      <table data-testid="decision-table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Kind</th>
            <th>Path</th>
            <th>Model / agent</th>
            <th>Selector</th>
            <th title="Selected (preselection), found (ToolSearch), or what became of a gateway call">Chosen</th>
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
  decision: Decision;
  index: number;
  measure: (node: Element | null) => void;
}) {
  return (
    <tr ref={measure} data-index={index} data-testid={`decision-row-${decision.id}`} data-kind={decision.kind}>
      <td className="small mono">
        <LocalTime iso={decision.createdAt} />
      </td>
      <td>
        <span className={`badge kind-${decision.kind}`}>{decision.kind}</span>
      </td>
      <td className="mono small">{decision.path}</td>
      <td className="mono small">
        {decision.model}
        <br />
        <span className="muted">{decision.agent}</span>
      </td>
      <td className="small">
        {decision.selector ?? <span className="faint">{decision.kind === "call" ? "none" : "none (exact)"}</span>}
        {decision.fallback && (
          <span className="badge warn" title={`${decision.fallback.from}: ${decision.fallback.cause}`} data-testid="fallback-badge">
            {" "}
            fallback
          </span>
        )}
      </td>
      <td data-testid="result-count">{resultSummary(decision)}</td>
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
