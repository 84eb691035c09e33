// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement, Fragment } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { settleAction, useUnsavedChangesWarning } from "@/components/save-state";

function Form({ dirty }: { dirty: boolean }) {
  useUnsavedChangesWarning(dirty);
  return createElement(Fragment, null, createElement("a", { href: "/catalogs/demo/agents", "data-testid": "tab" }, "Agents"));
}

/** Clicks the link and tells whether the click was let through (the browser or Next would then navigate). */
function clickLink(): boolean {
  return fireEvent.click(screen.getByTestId("tab"));
}

describe("saving", () => {
  it("turns a request that failed (network, 500) into a refusal the form can show", async () => {
    const result = await settleAction(() => Promise.reject(new TypeError("Failed to fetch")));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain("nothing was saved");
    expect(await settleAction(async () => ({ ok: true as const, data: 7 }))).toEqual({ ok: true, data: 7 });
  });
});

describe("leaving a page with unsaved changes", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("asks before following a link, and stays when the person says no", () => {
    const confirm = vi.fn(() => false);
    vi.stubGlobal("confirm", confirm);
    render(createElement(Form, { dirty: true }));
    expect(clickLink()).toBe(false);
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining("unsaved changes"));
  });

  it("leaves when the person says yes, and asks nothing when nothing is unsaved", () => {
    const confirm = vi.fn(() => true);
    vi.stubGlobal("confirm", confirm);
    const { rerender } = render(createElement(Form, { dirty: true }));
    expect(clickLink()).toBe(true);
    expect(confirm).toHaveBeenCalledTimes(1);
    rerender(createElement(Form, { dirty: false }));
    expect(clickLink()).toBe(true);
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  it("asks before the page unloads", () => {
    render(createElement(Form, { dirty: true }));
    const event = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
  });
});
