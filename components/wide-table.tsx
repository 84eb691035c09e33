"use client";

import { type RefObject, useEffect, useRef, useState } from "react";

/** Whether the element's content is wider than its box (it scrolls sideways), followed as either resizes. */
function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

/**
 * A table that may be wider than the screen: it scrolls inside its frame, says so while it does,
 * and (with the table marked `sticky-actions`) keeps its last column, the row's buttons, in sight
 * on a phone.
 */
export function WideTable({ children, testId }: { children: React.ReactNode; testId?: string }) {
  const frame = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(frame);
  return (
    <div className="wide-table">
      {scrolls && (
        <p className="scroll-hint" data-testid={testId && `${testId}-scroll-hint`}>
          Scroll sideways for more columns <span aria-hidden="true">→</span>
        </p>
      )}
      <div className="table-wrap" ref={frame}>
        {children}
      </div>
    </div>
  );
}

/** The heading of a table's last column, its rows' buttons: named for screen readers only. */
export function ActionsHeading() {
  return (
    <th>
      <span className="visually-hidden">Actions</span>
    </th>
  );
}
