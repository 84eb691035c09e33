"use client";

import { useEffect, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/action-result";

type Failure = Extract<ActionResult<unknown>, { ok: false }>["error"];

/**
 * Runs a server action and answers with its result, also when the request itself failed (the
 * network, or a server that answered 500): that becomes a refusal like any other, so the form
 * that asked shows it in place and keeps its draft, instead of the page giving way to an error page.
 */
export async function settleAction<T>(action: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  try {
    return await action();
  } catch {
    return {
      ok: false,
      error: { code: "unreachable", message: "The server could not be reached, or it failed before answering: nothing was saved.", problems: [] },
    };
  }
}

/**
 * A form's saves: `save` runs the action in a transition; a refusal or a failed request is kept as
 * `failure` (shown with <SaveFailure>) until the next save succeeds. The form's own state, its
 * draft, is never touched here.
 */
export function useSaveAction() {
  const [pending, startTransition] = useTransition();
  const [failure, setFailure] = useState<Failure>();
  const save = <T,>(action: () => Promise<ActionResult<T>>, onSaved: (data: T) => void | Promise<void>, onRefused?: (error: Failure) => void) =>
    startTransition(async () => {
      const result = await settleAction(action);
      if (!result.ok) {
        setFailure(result.error);
        onRefused?.(result.error);
        return;
      }
      setFailure(undefined);
      await onSaved(result.data);
    });
  return { pending, failure, save };
}

/** What failed, in plain words, that the edits are still here, and Retry. */
export function SaveFailure({ failure, what, onRetry, pending }: { failure?: Failure; what: string; onRetry: () => void; pending?: boolean }) {
  if (!failure) return null;
  return (
    <div className="error-box" role="alert" data-testid="save-error">
      <b>Could not save {what}.</b> {failure.message} Your edits are kept on this page.{" "}
      <button type="button" onClick={onRetry} disabled={pending} data-testid="save-retry">
        Retry
      </button>
    </div>
  );
}

/** The forms on the page with unsaved changes; one listener asks before leaving for any of them. */
const unsavedForms = new Set<symbol>();

const LEAVE_QUESTION = "You have unsaved changes on this page. Leave and discard them?";

/** Set once the person agreed to leave by Back: the way out is then let through. */
let leaving = false;

function askBeforeUnload(event: BeforeUnloadEvent) {
  if (unsavedForms.size > 0 && !leaving) event.preventDefault();
}

/** A click on a link to another page (a tab, a crumb) while edits are unsaved: leave only if the person says so. */
function askBeforeFollowingLink(event: MouseEvent) {
  if (unsavedForms.size === 0 || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
  if (!link || link.target === "_blank" || link.hasAttribute("download")) return;
  const target = new URL(link.href, window.location.href);
  if (target.origin === window.location.origin && target.pathname === window.location.pathname && target.search === window.location.search) return;
  if (!window.confirm(LEAVE_QUESTION)) {
    // Before Next's <Link> sees the click: it leaves a prevented click alone.
    event.preventDefault();
    event.stopPropagation();
  }
}

/** The page the unsaved edits are on: its address and history state (Next's router keeps its own there). */
let guarded: { href: string; state: Record<string, unknown> | null } | undefined;

/** Marks the entry standInFront adds, beside the router's own keys of the state. */
const STAND_IN = "toolshedUnsavedStandIn";
/** Marks the page's own entry under a stand-in. */
const UNDER_STAND_IN = "toolshedUnderStandIn";

/** Whether the current entry is a stand-in, as far as the last step through the history (or standInFront) tells. */
let onStandIn = false;

/**
 * Back and forward cannot be cancelled, so while edits are unsaved an entry of the guarded page
 * stands in front of the one before (and, being the newest, leaves no page to go forward to):
 * Back first lands on the same page again, where the person is asked.
 */
function standInFront() {
  if (!guarded || (window.history.state?.[STAND_IN] && window.location.href === guarded.href)) return;
  if (window.location.href === guarded.href) window.history.replaceState({ ...window.history.state, [UNDER_STAND_IN]: true }, "", guarded.href);
  window.history.pushState({ ...guarded.state, [STAND_IN]: true }, "", guarded.href);
  onStandIn = true;
  window.addEventListener("popstate", passOverLeftStandIn, true);
}

/**
 * Once nothing is unsaved (a save), a stand-in stays in the history: Back from it would land on
 * the same page and seem to do nothing, so that step is followed by one more and Back takes one
 * press. Only a step back from the stand-in onto its page's own entry is passed over; a step
 * forward onto that entry is not.
 */
function passOverLeftStandIn(event: PopStateEvent) {
  const cameFromStandIn = onStandIn;
  onStandIn = Boolean(window.history.state?.[STAND_IN]);
  if (unsavedForms.size > 0 || !cameFromStandIn || !window.history.state?.[UNDER_STAND_IN] || window.location.href !== guarded?.href) return;
  event.stopImmediatePropagation();
  window.history.back();
}

/**
 * A step through the history while edits are unsaved. It runs before Next's router's own popstate
 * listener (it is a capturing one on window) and keeps the router from seeing a step the person
 * refuses: the page's entry is put back. Agreed, a step to another page goes on to the router; the
 * step back onto the same page (from the stand-in entry) is followed by one more, which it lets through.
 */
function askBeforeGoingBack(event: PopStateEvent) {
  if (unsavedForms.size === 0 || leaving || !guarded) return;
  const samePage = window.location.href === guarded.href;
  if (!window.confirm(LEAVE_QUESTION)) {
    event.stopImmediatePropagation();
    return standInFront();
  }
  leaving = true;
  if (!samePage) return;
  event.stopImmediatePropagation();
  window.history.back();
}

/** While `dirty`, leaving the page (a link, back or forward, reload, closing the tab) asks first. */
export function useUnsavedChangesWarning(dirty: boolean) {
  const [id] = useState(() => Symbol("form"));
  useEffect(() => {
    if (!dirty) return;
    if (unsavedForms.size === 0) {
      leaving = false;
      guarded = { href: window.location.href, state: window.history.state };
      window.addEventListener("beforeunload", askBeforeUnload);
      window.addEventListener("click", askBeforeFollowingLink, true);
      window.addEventListener("popstate", askBeforeGoingBack, true);
      standInFront();
    }
    unsavedForms.add(id);
    return () => {
      unsavedForms.delete(id);
      if (unsavedForms.size === 0) {
        window.removeEventListener("beforeunload", askBeforeUnload);
        window.removeEventListener("click", askBeforeFollowingLink, true);
        window.removeEventListener("popstate", askBeforeGoingBack, true);
      }
    };
  }, [dirty, id]);
}
