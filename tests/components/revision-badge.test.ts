// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RevisionBadge } from "@/components/revision-badge";

const refresh = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh }) }));

let latest = 8;

function renderBadge(shown: number) {
  const queryClient = new QueryClient();
  render(createElement(QueryClientProvider, { client: queryClient }, createElement(RevisionBadge, { catalogId: "demo", revision: shown })));
  return queryClient;
}

describe("the catalog's revision badge", () => {
  beforeEach(() => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ catalog: { id: "demo", revision: latest } })),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    refresh.mockReset();
  });

  it("shows the page's revision while it is the latest", async () => {
    latest = 8;
    renderBadge(8);
    await vi.waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalledWith("/api/catalogs/demo", expect.anything()));
    expect(screen.getByTestId("catalog-revision").textContent).toBe("revision 8");
    expect(screen.queryByTestId("revision-refresh")).toBeNull();
  });

  it("notices a revision made elsewhere and offers to refresh the page and its data", async () => {
    latest = 9;
    const queryClient = renderBadge(8);
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    expect(await screen.findByTestId("revision-refresh")).toBeTruthy();
    expect(screen.getByTestId("catalog-revision").textContent).toContain("revision 8 → 9");
    fireEvent.click(screen.getByTestId("revision-refresh"));
    expect(refresh).toHaveBeenCalled();
    expect(invalidate).toHaveBeenCalled();
  });
});
