// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, renderHook } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CatalogRevisionProvider, useCatalogRevision } from "@/components/catalog-revision";

let polled = 0;

function renderRevision(rendered: number) {
  const client = new QueryClient();
  const hook = renderHook(() => useCatalogRevision("demo"), {
    wrapper: ({ children }) => createElement(QueryClientProvider, { client }, createElement(CatalogRevisionProvider, { revision: rendered }, children)),
  });
  return { ...hook, client };
}

describe("the revision a catalog page reads at", () => {
  beforeEach(() => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ catalog: { id: "demo", revision: polled } })),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("is the rendered one until the poll finds a newer one", async () => {
    polled = 7;
    const { result, client } = renderRevision(7);
    expect(result.current).toBe(7);
    await vi.waitFor(() => expect(client.getQueryData(["catalog-revision", "demo"])).toBe(7));
    polled = 8;
    await client.refetchQueries({ queryKey: ["catalog-revision", "demo"] });
    await vi.waitFor(() => expect(result.current).toBe(8));
  });

  // A page rendered again after a save (its layout revalidated) knows a newer revision than the last poll.
  it("is the rendered one when the last poll is older", async () => {
    polled = 5;
    const { result, client } = renderRevision(6);
    await vi.waitFor(() => expect(client.getQueryData(["catalog-revision", "demo"])).toBe(5));
    expect(result.current).toBe(6);
  });
});
