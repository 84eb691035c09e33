// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { type UrlUpdateEvent, withNuqsTestingAdapter } from "nuqs/adapters/testing";
import { createLoader } from "nuqs/server";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toolListAction } from "@/app/catalogs/[catalog]/simulator/actions";
import type { ToolListResponse } from "@/components/api-client";
import { CatalogRevisionProvider } from "@/components/catalog-revision";
import { Simulator } from "@/components/simulator";
import { readPane, simulatorParsers } from "@/components/simulator-state";

/** The simulator's state from a URL's query, read with the page's own parsers. */
const loadSimulatorState = createLoader(simulatorParsers);

vi.mock("@/app/catalogs/[catalog]/simulator/actions", () => ({ toolListAction: vi.fn() }));

const agents = [
  { name: "build", mode: "primary" },
  { name: "plan", mode: "primary" },
];

/** The catalog's revision now, as the revision badge's poll reads it. */
let latestRevision = 1;

/** The tool-list action: each configuration sees one tool; the answer names the model (as its provider) and the mode. */
function toolListResponse(body: { model: string; agent: string; mode?: string }) {
  return {
    revision: latestRevision,
    provider: body.model,
    mode: body.mode ?? body.agent,
    format: "ai-sdk",
    tools: [{ name: "read" }],
    annotations: [{ name: "read", source: "builtin", needsApproval: false }],
    trace: [],
    tokens: { total: 10, perTool: { read: 10 } },
  };
}

function renderSimulator(searchParams: string) {
  const urls: string[] = [];
  const onUrlUpdate = (event: UrlUpdateEvent) => urls.push(event.queryString);
  const queryClient = new QueryClient();
  const simulator = createElement(Simulator, { catalogId: "demo", agents, knownModels: [] });
  const UrlState = withNuqsTestingAdapter({ searchParams, onUrlUpdate, hasMemory: true });
  const page = createElement(CatalogRevisionProvider, { revision: 1 }, createElement(UrlState, null, simulator));
  render(createElement(QueryClientProvider, { client: queryClient }, page));
  return { urls, lastUrl: () => loadSimulatorState(urls.at(-1) ?? searchParams), queryClient };
}

/** gpt-4o on OpenAI with `count` tools of 400 tokens each. */
function manyTools(count: number) {
  const names = Array.from({ length: count }, (_, index) => `tool_${index}`);
  return {
    ...toolListResponse({ model: "openai", agent: "build" }),
    tools: names.map((name) => ({ name })),
    annotations: names.map((name) => ({ name, source: "mcp", needsApproval: false })),
    tokens: { total: count * 400, perTool: Object.fromEntries(names.map((name) => [name, 400])) },
  };
}

const pane = (which: "a" | "b") => within(screen.getByTestId(`sim-${which}`));

/** Waits until the pane shows the result for that model and mode. */
async function showsResult(which: "a" | "b", model: string, mode: string) {
  await vi.waitFor(() => {
    const header = pane(which).getByTestId("final-mode").parentElement?.textContent;
    expect(header).toContain(`provider ${model} · mode ${mode}`);
  });
}

describe("the simulator", () => {
  beforeEach(() => {
    latestRevision = 1;
    vi.mocked(toolListAction).mockImplementation(async (_catalogId, config) => {
      const body = config as { model: string; agent: string; mode?: string };
      if (body.model === "broken") return { ok: false, error: { code: "internal", message: "Something went wrong on the server.", problems: [] } };
      const data = body.model === "gpt-4o" ? manyTools(129) : toolListResponse(body);
      return { ok: true, data: data as unknown as ToolListResponse };
    });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ catalog: { id: "demo", revision: latestRevision } })),
    );
  });
  afterEach(() => {
    cleanup();
    vi.mocked(toolListAction).mockReset();
    vi.unstubAllGlobals();
  });

  it("shows exactly the state its URL holds: both panes, mode, flags and the why question", async () => {
    renderSimulator("?model=gpt-5&agent=build&flags=experimental.lsp&why=edit&bmodel=claude-sonnet-4-5&bagent=plan&bmode=build&bwhy=bash&format=openai");
    await showsResult("b", "claude-sonnet-4-5", "build");
    expect((pane("b").getByTestId("mode-input") as HTMLInputElement).value).toBe("build");
    expect((pane("b").getByTestId("why-input") as HTMLInputElement).value).toBe("bash");
    expect((pane("a").getByTestId("why-input") as HTMLInputElement).value).toBe("edit");
    expect((pane("a").getByRole("checkbox", { name: "experimental.lsp" }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId("format") as HTMLSelectElement).value).toBe("openai");
  });

  it("keeps both panes' changes when they come one right after the other", async () => {
    const { lastUrl } = renderSimulator("?model=gpt-5&agent=build&bmodel=claude-sonnet-4-5&bagent=plan");
    await showsResult("b", "claude-sonnet-4-5", "plan");
    const modelA = pane("a").getByTestId("model-input");
    fireEvent.change(modelA, { target: { value: "gpt-5-mini" } });
    fireEvent.keyDown(modelA, { key: "Enter" });
    const modeB = pane("b").getByTestId("mode-input");
    fireEvent.change(modeB, { target: { value: "build" } });
    fireEvent.keyDown(modeB, { key: "Enter" });
    await showsResult("b", "claude-sonnet-4-5", "build");
    await showsResult("a", "gpt-5-mini", "build");
    await vi.waitFor(() => {
      expect(readPane(lastUrl(), "a")?.model).toBe("gpt-5-mini");
      expect(readPane(lastUrl(), "b")).toMatchObject({ model: "claude-sonnet-4-5", agent: "plan", mode: "build" });
    });
  });

  it("says when the mode typed is not the one in use yet", async () => {
    renderSimulator("?model=gpt-5&agent=build&bmodel=claude-sonnet-4-5&bagent=plan");
    await showsResult("b", "claude-sonnet-4-5", "plan");
    fireEvent.change(pane("b").getByTestId("mode-input"), { target: { value: "build" } });
    expect(pane("b").getByTestId("mode-input-unapplied").textContent).toContain("not applied");
    await showsResult("b", "claude-sonnet-4-5", "plan");
  });

  it("applies flags typed, comma-separated, on Enter and empties the field", async () => {
    const { lastUrl } = renderSimulator("?model=gpt-5&agent=build");
    await showsResult("a", "gpt-5", "build");
    const flag = pane("a").getByRole("textbox", { name: "Another flag" }) as HTMLInputElement;
    fireEvent.change(flag, { target: { value: "beta, new" } });
    fireEvent.keyDown(flag, { key: "Enter" });
    await vi.waitFor(() => expect(readPane(lastUrl(), "a")?.flags).toEqual(["beta", "new"]));
    await vi.waitFor(() => expect(flag.value).toBe(""));
    expect((pane("a").getByRole("checkbox", { name: "beta" }) as HTMLInputElement).checked).toBe(true);
  });

  it("keeps what is typed and not applied while the pane's other settings and its result change", async () => {
    renderSimulator("?model=gpt-5&agent=build");
    await showsResult("a", "gpt-5", "build");
    const mode = pane("a").getByTestId("mode-input") as HTMLInputElement;
    const flag = pane("a").getByRole("textbox", { name: "Another flag" }) as HTMLInputElement;
    fireEvent.change(mode, { target: { value: "review" } });
    fireEvent.change(flag, { target: { value: "beta" } });
    fireEvent.change(pane("a").getByTestId("why-input"), { target: { value: "edit" } });
    fireEvent.change(pane("a").getByTestId("agent-select"), { target: { value: "plan" } });
    await showsResult("a", "gpt-5", "plan");
    expect(mode.value).toBe("review");
    expect(pane("a").getByTestId("mode-input-unapplied")).toBeTruthy();
    expect(flag.value).toBe("beta");
  });

  it("applies a setting trimmed when its field is left, and never an empty model", async () => {
    const { lastUrl } = renderSimulator("?model=gpt-5&agent=build");
    await showsResult("a", "gpt-5", "build");
    const model = pane("a").getByTestId("model-input") as HTMLInputElement;
    fireEvent.change(model, { target: { value: "  gpt-5-mini " } });
    fireEvent.blur(model);
    await showsResult("a", "gpt-5-mini", "build");
    await vi.waitFor(() => expect(model.value).toBe("gpt-5-mini"));
    expect(pane("a").queryByTestId("model-input-unapplied")).toBeNull();
    fireEvent.change(model, { target: { value: " " } });
    fireEvent.keyDown(model, { key: "Enter" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readPane(lastUrl(), "a")?.model).toBe("gpt-5-mini");
    expect(pane("a").getByTestId("model-input-unapplied")).toBeTruthy();
  });

  it("keeps the last good result on screen, marked, when a new configuration fails, with Retry", async () => {
    renderSimulator("?model=gpt-5&agent=build");
    await showsResult("a", "gpt-5", "build");
    const model = pane("a").getByTestId("model-input");
    fireEvent.change(model, { target: { value: "broken" } });
    fireEvent.keyDown(model, { key: "Enter" });
    const error = await pane("a").findByTestId("sim-error");
    expect(error.textContent).toContain("Could not simulate broken / build: Something went wrong on the server.");
    expect(error.textContent).toContain("Retry");
    await showsResult("a", "gpt-5", "build");
    expect(pane("a").getByTestId("sim-result").dataset.current).toBe("false");
  });

  it("reads the list again when the catalog's revision changes, the last one on screen meanwhile", async () => {
    const { queryClient } = renderSimulator("?model=gpt-5&agent=build");
    await showsResult("a", "gpt-5", "build");
    expect(pane("a").getByTestId("final-list").textContent).toContain("rev 1");
    const calls = vi.mocked(toolListAction).mock.calls.length;
    // The list at revision 2 is held back until the one of revision 1 was seen, marked, in its place.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const implementation = vi.mocked(toolListAction).getMockImplementation();
    vi.mocked(toolListAction).mockImplementationOnce(async (...args) => {
      await answered;
      return implementation!(...args);
    });
    latestRevision = 2;
    await queryClient.refetchQueries({ queryKey: ["catalog-revision", "demo"] });
    await vi.waitFor(() => expect(pane("a").getByTestId("sim-result").dataset.current).toBe("false"));
    expect(pane("a").getByTestId("final-list").textContent).toContain("rev 1");
    answer();
    await vi.waitFor(() => expect(pane("a").getByTestId("final-list").textContent).toContain("rev 2"));
    expect(pane("a").getByTestId("sim-result").dataset.current).toBe("true");
    expect(vi.mocked(toolListAction).mock.calls.length).toBe(calls + 1);
    expect(vi.mocked(toolListAction).mock.calls.at(-1)).toEqual(["demo", expect.objectContaining({ model: "gpt-5", agent: "build" })]);
  });

  it("warns when the final list is longer than the provider accepts and takes much of the context window", async () => {
    renderSimulator("?model=gpt-4o&agent=build");
    const warnings = await pane("a").findByTestId("sim-warnings");
    expect(warnings.textContent).toContain("openai accepts at most 128 tools per request: this list has 129");
    expect(warnings.textContent).toContain("40% of gpt-4o's context window");
  });
});
