"use client";

import type { UseInfiniteQueryResult } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, type ReactNode } from "react";

/**
 * The rows of a table body near the scrolling container's viewport (TanStack Virtual), with spacer
 * rows standing for the others; rows are measured as they render, so they may wrap. `onNearEnd` is
 * called when the last rows come near, to load the next page (`more` adds a row with a button for
 * it, for keyboards and for when nothing scrolls). The container comes as an element
 * kept in state (a callback ref's `useState` setter), not a ref object: it is an ancestor, whose ref
 * is attached only after these rows' layout effects ran, so only a re-render tells the virtualizer
 * it exists.
 */
export function VirtualRows({
  count,
  scrollElement,
  columns,
  estimateSize,
  renderRow,
  onNearEnd,
  more,
}: {
  count: number;
  scrollElement: HTMLElement | null;
  columns: number;
  estimateSize: number;
  renderRow: (index: number, measure: (node: Element | null) => void) => ReactNode;
  onNearEnd?: () => void;
  more?: { pending: boolean; label: string; testId: string };
}) {
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollElement,
    estimateSize: () => estimateSize,
    overscan: 20,
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (onNearEnd && lastIndex >= count - 30) onNearEnd();
  }, [onNearEnd, lastIndex, count]);
  // Before the container is measured no row is in range: the spacer then stands for all of them,
  // so that the container takes its height (a container that is all rows would stay 0 px high).
  const top = items.length ? items[0].start : 0;
  const bottom = virtualizer.getTotalSize() - (items.length ? items[items.length - 1].end : 0);
  return (
    <>
      {top > 0 && <Spacer height={top} columns={columns} />}
      {items.map((item) => renderRow(item.index, virtualizer.measureElement))}
      {bottom > 0 && <Spacer height={bottom} columns={columns} />}
      {more && (
        <tr data-testid={more.testId}>
          <td colSpan={columns} className="muted small">
            <button type="button" className="ghost" onClick={onNearEnd} disabled={more.pending}>
              {more.pending ? "Loading…" : more.label}
            </button>
          </td>
        </tr>
      )}
    </>
  );
}

/** Asks an infinite query for its next page, one request at a time. */
export function useLoadMore({
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
}: Pick<UseInfiniteQueryResult, "hasNextPage" | "isFetchingNextPage" | "fetchNextPage">) {
  return useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
}

function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a table row is not focusable; the spacer only holds the scroll height and stays out of the accessibility tree
    <tr aria-hidden="true" className="virtual-spacer">
      <td colSpan={columns} style={{ height }} />
    </tr>
  );
}
