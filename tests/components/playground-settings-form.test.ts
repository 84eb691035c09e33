// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Playground } from "@/components/playground";

const replace = vi.fn();
let search = new URLSearchParams();
vi.mock("next/navigation", () => ({
  useRouter: () => ({ replace }),
  usePathname: () => "/catalogs/demo/playground",
  useSearchParams: () => search,
}));
vi.mock("sonner", () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock("@/app/catalogs/[catalog]/playground/actions", () => ({ toolSearchAction: vi.fn() }));

const client = new QueryClient();
const playground = () =>
  createElement(
    QueryClientProvider,
    { client },
    createElement(Playground, {
      catalogId: "demo",
      agents: [
        { name: "build", mode: "primary" },
        { name: "plan", mode: "primary" },
      ],
      knownModels: [],
      mainModel: null,
      mainModelError: null,
      auxSelector: "local",
      viewer: { key: "user:viewer", access: "read" },
    }),
  );

/** The page at `query`; `rerender` follows the URL to another query, as the router does. */
function renderPlayground(query: string) {
  search = new URLSearchParams(query);
  const { rerender } = render(playground());
  return (next: string) => {
    search = new URLSearchParams(next);
    rerender(playground());
  };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const topK = () => screen.getByTestId("playground-k") as HTMLInputElement;

/** Where the page's URL went last: its query. */
const lastQuery = () => new URL(replace.mock.lastCall?.[0] as string, "http://localhost").searchParams;

describe("the playground's settings", () => {
  beforeEach(() => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => Response.json(url.includes("/conversations/") ? { messages: [] } : { conversations: [] })),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    replace.mockReset();
  });

  it("sets a text field when it loses focus, the agent and top k as they change, and only what changed", async () => {
    renderPlayground("model=gpt-5&agent=build");
    fireEvent.change(field("Model (for the pipeline)"), { target: { value: " o3 " } });
    fireEvent.blur(field("Model (for the pipeline)"));
    await vi.waitFor(() => expect(replace).toHaveBeenCalledTimes(1));
    expect(lastQuery().toString()).toBe("model=o3&agent=build");

    fireEvent.change(field("Flags"), { target: { value: "a, b" } });
    fireEvent.blur(field("Flags"));
    await vi.waitFor(() => expect(lastQuery().get("flags")).toBe("a,b"));

    fireEvent.change(screen.getByTestId("playground-agent"), { target: { value: "plan" } });
    await vi.waitFor(() => expect(lastQuery().get("agent")).toBe("plan"));
    fireEvent.change(topK(), { target: { value: "3" } });
    await vi.waitFor(() => expect(lastQuery().get("k")).toBe("3"));
  });

  it("says what is wrong with a setting the server would refuse, and leaves the URL as it was", async () => {
    renderPlayground("model=gpt-5&agent=build");
    fireEvent.change(field("Model (for the pipeline)"), { target: { value: "  " } });
    fireEvent.blur(field("Model (for the pipeline)"));
    expect(await screen.findByText("Name a model id, e.g. gpt-5.")).toBeTruthy();
    expect(field("Model (for the pipeline)").getAttribute("aria-invalid")).toBe("true");

    fireEvent.change(field("Model (for the pipeline)"), { target: { value: "gpt-5" } });
    fireEvent.change(topK(), { target: { value: "60" } });
    expect(await screen.findByText("Top k is a whole number from 1 to 50.")).toBeTruthy();
    expect(screen.queryByText("Name a model id, e.g. gpt-5.")).toBeNull();
    expect(replace).not.toHaveBeenCalled();
  });

  it("keeps what is typed in a field while another setting changes the URL, and follows the URL where it changes that field", async () => {
    const navigate = renderPlayground("model=gpt-5&agent=build&mode=fast");
    fireEvent.change(field("Mode"), { target: { value: "careful" } });
    navigate("model=gpt-5&agent=plan&mode=fast");
    expect(field("Mode").value).toBe("careful");

    // A conversation picked: its model and agent, no mode.
    navigate("conversation=c1&model=o3&agent=build");
    expect(field("Model (for the pipeline)").value).toBe("o3");
    expect(field("Mode").value).toBe("");
    expect(topK().value).toBe("8");
  });
});
