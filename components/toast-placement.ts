import { useEffect, useRef, useState } from "react";
import { toast, useSonner } from "sonner";

export type ToastPosition = "top-right" | "bottom-right";

/** Sonner's layout: a column this wide, this far from the window's right edge; across the whole width up to PHONE_WIDTH. */
const TOAST_WIDTH = 356;
const OFFSET = 24;
const PHONE_WIDTH = 600;

interface Box {
  top: number;
  bottom: number;
  right: number;
}

/**
 * Where toasts go so that they never cover the control just used: at the bottom (the default)
 * unless the control is in the lower half of the window under the toasts' column, then at the top.
 */
export function toastPositionFor(control: Box | undefined, window: { width: number; height: number }): ToastPosition {
  if (!control) return "bottom-right";
  const underColumn = window.width <= PHONE_WIDTH || control.right > window.width - OFFSET - TOAST_WIDTH;
  const inLowerHalf = (control.top + control.bottom) / 2 > window.height / 2;
  return underColumn && inLowerHalf ? "top-right" : "bottom-right";
}

type ToastId = string | number;

/**
 * The toasts a newer one supersedes: once a toast appears, the errors and warnings shown before it
 * are stale (the action was retried and succeeded, or something else happened since). `seen`: the
 * toasts already shown before this change; a toast updated in place keeps its id and is not newer.
 */
export function supersededToasts(toasts: { id: ToastId; type?: string }[], seen: ReadonlySet<ToastId>): ToastId[] {
  if (toasts.every((shown) => seen.has(shown.id))) return [];
  return toasts.filter((shown) => seen.has(shown.id) && (shown.type === "error" || shown.type === "warning")).map((shown) => shown.id);
}

/** What counts as a control the person used. */
const CONTROL = "button, a, input, select, textarea, summary, [role=switch], [role=button]";

/**
 * The Toaster's position, away from the control last clicked or focused; and stale errors dismissed
 * as soon as a newer toast appears.
 */
export function useToastPlacement(): ToastPosition {
  const { toasts } = useSonner();
  const seen = useRef<ReadonlySet<ToastId>>(new Set());
  useEffect(() => {
    for (const id of supersededToasts(toasts, seen.current)) toast.dismiss(id);
    seen.current = new Set(toasts.map((shown) => shown.id));
  }, [toasts]);

  const [position, setPosition] = useState<ToastPosition>("bottom-right");
  useEffect(() => {
    const place = (event: Event) => {
      const control = event.target instanceof Element ? event.target.closest(CONTROL) : null;
      if (!control || control.closest("[data-sonner-toaster]")) return;
      setPosition(toastPositionFor(control.getBoundingClientRect(), { width: window.innerWidth, height: window.innerHeight }));
    };
    document.addEventListener("click", place, true);
    document.addEventListener("focusin", place, true);
    return () => {
      document.removeEventListener("click", place, true);
      document.removeEventListener("focusin", place, true);
    };
  }, []);
  return position;
}
