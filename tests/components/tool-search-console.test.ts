// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { toast } from "sonner";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toolSearchAction } from "@/app/catalogs/[catalog]/playground/actions";
import { Playground } from "@/components/playground";

const replace = vi.fn();
vi.mock("next/navigation", () => ({
  useRouter: () => ({ replace }),
  usePathname: () => "/catalogs/demo/playground",
  useSearchParams: () => new URLSearchParams("model=gpt-5&agent=plan"),
}));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock("@/app/catalogs/[catalog]/playground/actions", () => ({ toolSearchAction: vi.fn() }));

const CONVERSATION = "7d0c1f0e-2b1a-4a8e-9d57-0c6f1b2a3c4d";

function renderPlayground() {
  const client = new QueryClient();
  const playground = createElement(Playground, {
    catalogId: "demo",
    agents: [{ name: "plan", mode: "primary" }],
    knownModels: [],
    mainModel: null,
    mainModelError: null,
    auxSelector: "local",
    viewer: { key: "user:viewer", access: "read" },
  });
  render(createElement(QueryClientProvider, { client }, playground));
}

function search(query: string) {
  fireEvent.change(screen.getByTestId("tool-search-query"), { target: { value: query } });
  fireEvent.click(screen.getByTestId("tool-search-run"));
}

describe("the playground's ToolSearch console", () => {
  beforeEach(() => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ conversations: [] })),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(toolSearchAction).mockReset();
    vi.mocked(toast.error).mockReset();
    replace.mockReset();
  });

  it("searches through the server action with the page's configuration, shows what passed and what not, and follows the conversation", async () => {
    vi.mocked(toolSearchAction).mockResolvedValueOnce({
      ok: true,
      data: {
        conversationId: CONVERSATION,
        path: "exact",
        tools: [{ name: "slack_post_message", description: "Post a message.", inputSchema: { type: "object", properties: {} } }],
        rejected: [{ name: "bash", reason: "removed at permissions" }],
        selector: null,
        fallback: null,
        decisionId: "d-1",
        latencyMs: 3,
      },
    });
    renderPlayground();
    search("select:slack_post_message,bash");
    const result = await screen.findByTestId("tool-search-result");
    expect(vi.mocked(toolSearchAction)).toHaveBeenCalledWith("demo", {
      model: "gpt-5",
      agent: "plan",
      mode: undefined,
      flags: [],
      conversationId: undefined,
      query: "select:slack_post_message,bash",
      maxResults: 5,
    });
    expect(screen.getByTestId("tool-search-path").textContent).toBe("exact");
    expect(result.querySelector('[data-testid="found-slack_post_message"]')).not.toBeNull();
    expect(screen.getByTestId("rejected-bash").textContent).toContain("removed at permissions");
    expect(replace).toHaveBeenCalledWith(expect.stringContaining(`conversation=${CONVERSATION}`), { scroll: false });
  });

  it("says what the server refused, in its words", async () => {
    vi.mocked(toolSearchAction).mockResolvedValueOnce({
      ok: false,
      error: { code: "not_found", message: 'Catalog "demo" not found.', field: "catalog", problems: [] },
    });
    renderPlayground();
    search("select:read");
    await vi.waitFor(() => expect(vi.mocked(toast.error)).toHaveBeenCalledWith('Catalog "demo" not found.'));
    expect(screen.queryByTestId("tool-search-result")).toBeNull();
  });
});
