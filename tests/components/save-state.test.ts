// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement, Fragment } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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

  describe("by the browser's back and forward buttons", () => {
    /** Stands for Next's router, which follows back and forward from its own popstate listener. */
    const router = vi.fn();
    /** The browser's Back: the entry before becomes the current one (its own state), then popstate. */
    const pressBack = () => {
      window.history.replaceState(null, "", window.location.href);
      window.dispatchEvent(new PopStateEvent("popstate", { state: null }));
    };

    // Each test starts on an entry of its own, as a page just opened.
    beforeEach(() => window.history.replaceState(null, "", window.location.href));
    afterEach(() => {
      window.removeEventListener("popstate", router);
      router.mockReset();
    });

    it("asks, and when the person says no the page and its edits stay, still guarded", () => {
      window.addEventListener("popstate", router);
      const pushState = vi.spyOn(window.history, "pushState");
      const confirm = vi.fn(() => false);
      vi.stubGlobal("confirm", confirm);
      const { rerender } = render(createElement(Form, { dirty: true }));
      // An entry of this same page stands in front of the one before, so Back first comes back here.
      expect(pushState).toHaveBeenCalledTimes(1);
      expect(pushState.mock.calls[0][2]).toBe(window.location.href);
      // Edits undone and made again on the same entry add no second one.
      rerender(createElement(Form, { dirty: false }));
      rerender(createElement(Form, { dirty: true }));
      expect(pushState).toHaveBeenCalledTimes(1);

      pressBack();
      expect(confirm).toHaveBeenCalledWith(expect.stringContaining("unsaved changes"));
      expect(router).not.toHaveBeenCalled();
      expect(pushState).toHaveBeenCalledTimes(2);
      pressBack();
      expect(confirm).toHaveBeenCalledTimes(2);
      expect(router).not.toHaveBeenCalled();
      pushState.mockRestore();
    });

    it("goes back when the person says yes, without asking again on the way out", () => {
      window.addEventListener("popstate", router);
      const back = vi.spyOn(window.history, "back").mockImplementation(() => pressBack());
      const confirm = vi.fn(() => true);
      vi.stubGlobal("confirm", confirm);
      render(createElement(Form, { dirty: true }));
      pressBack();
      expect(back).toHaveBeenCalledTimes(1);
      expect(confirm).toHaveBeenCalledTimes(1);
      expect(router).toHaveBeenCalledTimes(1);
      const leaving = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(leaving);
      expect(leaving.defaultPrevented).toBe(false);
      back.mockRestore();
    });

    it("puts the page back when a step to another page (forward, or further back) is refused, and lets the router take it when agreed", () => {
      window.addEventListener("popstate", router);
      const page = window.location.href;
      const pushState = vi.spyOn(window.history, "pushState");
      const back = vi.spyOn(window.history, "back");
      const confirm = vi.fn(() => false);
      vi.stubGlobal("confirm", confirm);
      render(createElement(Form, { dirty: true }));
      const goTo = (path: string) => {
        window.history.replaceState(null, "", path);
        window.dispatchEvent(new PopStateEvent("popstate", { state: null }));
      };

      goTo("/catalogs/demo/simulator");
      expect(router).not.toHaveBeenCalled();
      expect(window.location.href).toBe(page);
      expect(pushState).toHaveBeenLastCalledWith(expect.objectContaining({}), "", page);

      confirm.mockReturnValue(true);
      goTo("/catalogs/demo/simulator");
      expect(router).toHaveBeenCalledTimes(1);
      expect(back).not.toHaveBeenCalled();
      pushState.mockRestore();
      back.mockRestore();
    });

    it("after a save, Back from the page leaves it in one press: the stand-in left in front is passed over, and only going back", () => {
      window.addEventListener("popstate", router);
      const replaceState = vi.spyOn(window.history, "replaceState");
      // The step further back that the guard takes, without the browser's own history moving here.
      const back = vi.spyOn(window.history, "back").mockImplementation(() => {});
      const { rerender } = render(createElement(Form, { dirty: true }));
      // The page's own entry, under the stand-in, as the browser gives it back on Back.
      const ownEntry = replaceState.mock.calls.at(-1)?.[0];
      expect(ownEntry).toMatchObject({ toolshedUnderStandIn: true });
      rerender(createElement(Form, { dirty: false }));
      const arriveAt = (state: unknown) => {
        window.history.replaceState(state, "", window.location.href);
        window.dispatchEvent(new PopStateEvent("popstate", { state }));
      };

      arriveAt(ownEntry);
      expect(back).toHaveBeenCalledTimes(1);
      expect(router).not.toHaveBeenCalled();
      // Coming forward onto the page's own entry (from the page before it) is a step like any other.
      arriveAt(null);
      arriveAt(ownEntry);
      expect(back).toHaveBeenCalledTimes(1);
      expect(router).toHaveBeenCalledTimes(2);
      replaceState.mockRestore();
      back.mockRestore();
    });

    it("lets back and forward through when nothing is unsaved", () => {
      window.addEventListener("popstate", router);
      const confirm = vi.fn(() => false);
      vi.stubGlobal("confirm", confirm);
      render(createElement(Form, { dirty: false }));
      pressBack();
      expect(confirm).not.toHaveBeenCalled();
      expect(router).toHaveBeenCalledTimes(1);
    });
  });

  it("asks before the page unloads", () => {
    render(createElement(Form, { dirty: true }));
    const event = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
  });
});
