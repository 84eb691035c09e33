"use client";

import { useSyncExternalStore } from "react";

// One format for every date the pages show; the locale is fixed so that the server's rendering and
// the browser's first one are the same text whatever either is set to.
const FORMAT: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
const EXACT: Intl.DateTimeFormatOptions = { ...FORMAT, second: "2-digit", timeZoneName: "short" };

/** An instant in the one date format, in `timeZone` (by default the one this code runs in): "12 Mar 2025, 14:03". */
export function formatInstant(iso: string, timeZone?: string, options: Intl.DateTimeFormatOptions = FORMAT): string {
  return new Intl.DateTimeFormat("en-GB", { ...options, timeZone }).format(new Date(iso));
}

const subscribeToNothing = () => () => {};

/** False on the server and while hydrating, true after: what differs by the viewer's time zone is drawn only then. */
function useInBrowser(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * A date as every page shows one, in the viewer's time zone, with the exact instant (seconds, zone)
 * as its tooltip; `label` replaces the date shown (e.g. "3 min ago"), not the tooltip. The server
 * knows no viewer's zone: it renders UTC, saying so, and the browser redraws it in its own zone
 * once hydrated (so the two renderings never disagree).
 */
export function LocalTime({ iso, label, className }: { iso: string; label?: string; className?: string }) {
  const inBrowser = useInBrowser();
  return (
    <time dateTime={iso} className={className} title={formatInstant(iso, inBrowser ? undefined : "UTC", EXACT)}>
      {label ?? (inBrowser ? formatInstant(iso) : `${formatInstant(iso, "UTC")} UTC`)}
    </time>
  );
}
