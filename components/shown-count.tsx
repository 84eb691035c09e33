"use client";

import { useState, type ReactNode } from "react";

/**
 * A long list cut at `shown` (`first` at first), with a button that shows the next ones: the
 * button is the second value, or false when everything shows.
 */
export function useShownCount(length: number, first = 100): [number, ReactNode] {
  const [shown, setShown] = useState(first);
  const more = length > shown && (
    <button type="button" className="ghost small" onClick={() => setShown((count) => count * 4)} data-testid="show-more">
      … {(length - shown).toLocaleString()} more: show {Math.min(length - shown, shown * 3).toLocaleString()}
    </button>
  );
  return [shown, more];
}
