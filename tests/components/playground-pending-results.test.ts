// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Playground } from "@/components/playground";
import type { TurnDetails } from "@/lib/playground/messages";

vi.mock("next/navigation", () => ({
  useRouter: () => ({ replace: vi.fn() }),
  usePathname: () => "/catalogs/demo/playground",
  useSearchParams: () => new URLSearchParams("conversation=c1&model=gpt-5&agent=build"),
}));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock("@/app/catalogs/[catalog]/playground/actions", () => ({ toolSearchAction: vi.fn() }));

const turn: TurnDetails = {
  decisionId: "d1",
  toolSet: [{ name: "github_create_issue", origin: "preselected" }],
  selected: [{ name: "github_create_issue", score: 0.9 }],
  rejected: [],
  dropped: [],
  selector: "local",
  fallback: null,
  candidates: ["github_create_issue"],
  tokens: { toolSet: 120, visible: 900, candidates: 40 },
  latencyMs: 2,
};

/** A stored conversation whose answer waits for the result of a simulated call. */
const stored = {
  conversation: { id: "c1" },
  messages: [
    { id: 1, role: "user", content: "file it", details: turn },
    {
      id: 2,
      role: "assistant",
      content: "",
      details: {
        parts: [
          { type: "step-start" },
          {
            type: "dynamic-tool",
            toolCallId: "call-1",
            toolName: "github_create_issue",
            toolMetadata: { simulated: true, placeholder: '{ "number": 1 }' },
            state: "input-available",
            input: { title: "Login fails" },
          },
        ],
      },
    },
  ],
};

/**
 * The page's requests: the conversation list, the stored conversation, and what the chat sends,
 * refused here, so the chat stops (an answer without parts would leave the step complete, and the chat sending again).
 */
const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
  if (url.endsWith("/conversations/c1")) return Response.json(stored);
  if (url.includes("/conversations")) return Response.json({ conversations: [] });
  return Response.json({ error: { code: "bad_request", message: "Refused by the test." } }, { status: 400 });
});

function renderPlayground() {
  vi.stubGlobal("fetch", fetchMock);
  const playground = createElement(Playground, {
    catalogId: "demo",
    agents: [{ name: "build", mode: "primary" }],
    knownModels: [],
    mainModel: "openai:gpt-5",
    mainModelError: null,
    auxSelector: "local",
    viewer: { key: "user:viewer", access: "read" },
  });
  render(createElement(QueryClientProvider, { client: new QueryClient() }, playground));
}

const chatRequests = () => fetchMock.mock.calls.filter(([url]) => url === "/api/catalogs/demo/playground");

describe("the results of simulated calls", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockClear();
  });

  it("offers the tool's placeholder, and sends what is typed as the call's result", async () => {
    renderPlayground();
    const result = (await screen.findByTestId("result-github_create_issue")) as HTMLTextAreaElement;
    expect(result.value).toBe('{ "number": 1 }');
    fireEvent.change(result, { target: { value: "Created issue #42" } });
    fireEvent.click(screen.getByTestId("send-results"));
    await vi.waitFor(() => expect(chatRequests()).toHaveLength(1));
    expect(JSON.parse(String(chatRequests()[0][1]?.body))).toMatchObject({
      conversationId: "c1",
      toolResults: [{ toolCallId: "call-1", toolName: "github_create_issue", output: "Created issue #42" }],
    });
  });

  it("says when a result is longer than the server takes, and sends nothing", async () => {
    renderPlayground();
    const result = await screen.findByTestId("result-github_create_issue");
    fireEvent.change(result, { target: { value: "x".repeat(100_001) } });
    fireEvent.click(screen.getByTestId("send-results"));
    expect(await screen.findByText("A result is at most 100,000 characters.")).toBeTruthy();
    expect(result.getAttribute("aria-invalid")).toBe("true");
    expect(chatRequests()).toHaveLength(0);
  });
});
