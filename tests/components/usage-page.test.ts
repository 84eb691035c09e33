// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { type UrlUpdateEvent, withNuqsTestingAdapter } from "nuqs/adapters/testing";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UsagePage } from "@/components/usage-page";
import type { UsageFigures, UsageStats } from "@/lib/usage/usage-stats";

const fetchDouble = vi.fn<typeof fetch>();

function figures(name: string, values: Partial<UsageFigures> = {}): UsageFigures {
  return {
    name,
    calls: 0,
    errors: 0,
    errorsByKind: { refused: 0, timeout: 0, upstream: 0 },
    cancelled: 0,
    p50Ms: null,
    p95Ms: null,
    p99Ms: null,
    offered: 0,
    calledWhenOffered: 0,
    foundBySearch: 0,
    ...values,
  };
}

const STATS: UsageStats = {
  window: "24h",
  since: "2026-01-01T00:00:00.000Z",
  tools: [
    figures("search_web", {
      calls: 40,
      errors: 4,
      errorsByKind: { refused: 1, timeout: 2, upstream: 1 },
      p50Ms: 120,
      p95Ms: 900,
      p99Ms: 1_500,
      offered: 50,
      calledWhenOffered: 38,
    }),
    figures("files__read", { calls: 7, p50Ms: 15, p95Ms: 2_400, p99Ms: 2_400, foundBySearch: 5 }),
    figures("send_mail", { offered: 3 }),
  ],
  servers: [figures("files", { calls: 7, p50Ms: 15, p95Ms: 2_400, p99Ms: 2_400 })],
  agents: [figures("build", { calls: 47 })],
  models: [figures("gpt-5", { calls: 47 })],
  neverCalled: ["send_mail", "old_tool"],
  neverCalledTotal: 2,
  oftenFound: [{ name: "files__read", foundBySearch: 5 }],
};

function renderPage(searchParams = "") {
  const urls: string[] = [];
  const UrlState = withNuqsTestingAdapter({ searchParams, onUrlUpdate: (event: UrlUpdateEvent) => urls.push(event.queryString), hasMemory: true });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(createElement(UrlState, null, createElement(QueryClientProvider, { client: queryClient }, createElement(UsagePage, { catalogId: "demo" }))));
  return urls;
}

const requested = () => fetchDouble.mock.calls.map(([url]) => String(url)).filter((url) => url.includes("/usage-stats"));
const toolNames = () => screen.getAllByTestId("usage-tools-row").map((row) => row.querySelector("td")?.textContent);

describe("the Usage page", () => {
  beforeEach(() => {
    fetchDouble.mockImplementation(async (url) =>
      String(url).endsWith("/learning")
        ? Response.json({ enabled: true, reports: 3, tools: 2, weight: 1, calibrated: false })
        : Response.json({ ...STATS, window: new URL(String(url), "http://x").searchParams.get("window") }),
    );
    vi.stubGlobal("fetch", fetchDouble);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchDouble.mockReset();
  });

  it("shows each tool's figures, busiest first, with its name linking to its decisions", async () => {
    renderPage();
    await screen.findByTestId("usage-tools");
    expect(requested()).toEqual(["/api/catalogs/demo/usage-stats?window=24h"]);
    expect(toolNames()).toEqual(["search_web", "files__read", "send_mail"]);
    const first = screen.getAllByTestId("usage-tools-row")[0];
    expect(within(first).getByRole("link", { name: "search_web" }).getAttribute("href")).toBe("/catalogs/demo/decisions?tool=search_web");
    expect(first.textContent).toContain("900 ms");
    expect(first.textContent).toContain("1.50 s");
    expect(within(screen.getByTestId("usage-servers")).getByText("files")).toBeTruthy();
    expect(screen.getAllByTestId("calls-chart-bar")).toHaveLength(2);
    expect((await screen.findByTestId("learning-status")).textContent).toBe("On · 3 reports about 2 tools");
    expect(screen.getAllByTestId("latency-chart-bar")[0].textContent).toContain("files__read");
  });

  it("sorts by the column whose header is clicked, and turns around on a second click", async () => {
    renderPage();
    await screen.findByTestId("usage-tools");
    fireEvent.click(screen.getByTestId("usage-tools-sort-p95Ms"));
    expect(toolNames()).toEqual(["files__read", "search_web", "send_mail"]);
    fireEvent.click(screen.getByTestId("usage-tools-sort-p95Ms"));
    // No latency: last either way.
    expect(toolNames()).toEqual(["search_web", "files__read", "send_mail"]);
    fireEvent.click(screen.getByTestId("usage-tools-sort-name"));
    expect(toolNames()).toEqual(["files__read", "search_web", "send_mail"]);
    expect(screen.getByTestId("usage-tools-sort-name").closest("th")?.getAttribute("aria-sort")).toBe("ascending");
  });

  it("calls out tools never called in 30 days and tools ToolSearch keeps having to find", async () => {
    renderPage();
    expect((await screen.findByTestId("never-called")).textContent).toContain("send_mail, old_tool");
    const often = screen.getByTestId("often-found");
    expect(often.textContent).toContain("found 5 times");
    expect(within(often).getByRole("link", { name: "files__read" }).getAttribute("href")).toBe("/catalogs/demo/decisions?tool=files__read");
  });

  it("asks for the window picked, which the URL keeps", async () => {
    const urls = renderPage("?window=7d");
    await screen.findByTestId("usage-tools");
    expect(screen.getByTestId("usage-window-7d").getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(screen.getByTestId("usage-window-1h"));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(requested()).toEqual(["/api/catalogs/demo/usage-stats?window=7d", "/api/catalogs/demo/usage-stats?window=1h"]);
    expect(urls.at(-1)).toBe("?window=1h");
  });
});
