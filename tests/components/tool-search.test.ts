// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { type UrlUpdateEvent, withNuqsTestingAdapter } from "nuqs/adapters/testing";
import { createElement, createRef } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SEARCH_DEBOUNCE_MS, ToolSearchBox } from "@/components/tool-filters";

function renderSearch(searchParams = "") {
  const urls: string[] = [];
  const onUrlUpdate = (event: UrlUpdateEvent) => urls.push(event.queryString);
  const UrlState = withNuqsTestingAdapter({ searchParams, onUrlUpdate, hasMemory: true });
  render(createElement(UrlState, null, createElement(ToolSearchBox, { inputRef: createRef<HTMLInputElement>() })));
  return { input: screen.getByTestId("tool-search") as HTMLInputElement, urls };
}

/** One keystroke: the field's text grows by a character, as the browser reports it. */
function type(input: HTMLInputElement, text: string) {
  for (const character of text) fireEvent.change(input, { target: { value: input.value + character } });
}

describe("the tools search field", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("keeps every character typed quickly, and the URL gets the whole text once typing rests", async () => {
    const { input, urls } = renderSearch();
    type(input, "calendar event");
    expect(input.value).toBe("calendar event");
    expect(urls).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 100));
    expect(urls).toEqual(["?q=calendar+event"]);
    expect(input.value).toBe("calendar event");
  });

  it("keeps typing that goes on after the URL took an earlier pause's text", async () => {
    const { input, urls } = renderSearch("?source=mcp");
    type(input, "wea");
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 100));
    type(input, "ther");
    expect(input.value).toBe("weather");
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 100));
    expect(urls).toEqual(["?source=mcp&q=wea", "?source=mcp&q=weather"]);
    expect(input.value).toBe("weather");
  });

  it("sends the search at once on Enter", async () => {
    const { input, urls } = renderSearch();
    type(input, "slack");
    fireEvent.keyDown(input, { key: "Enter" });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS / 2));
    expect(urls).toEqual(["?q=slack"]);
  });
});
