// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { type UrlUpdateEvent, withNuqsTestingAdapter } from "nuqs/adapters/testing";
import { type ComponentProps, createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolPage } from "@/components/api-client";
import { CatalogAccessProvider } from "@/components/catalog-access";
import { ToolTableToolbar } from "@/components/tool-table-toolbar";

const facets = {
  sources: [
    { source: "mcp", count: 12 },
    { source: "custom", count: 3 },
  ],
  tags: [{ tag: "mail", count: 4 }],
  catalogTotal: 15,
} as ToolPage["facets"];

function renderToolbar(searchParams = "") {
  const urls: string[] = [];
  const onUrlUpdate = (event: UrlUpdateEvent) => urls.push(event.queryString);
  const UrlState = withNuqsTestingAdapter({ searchParams, onUrlUpdate, hasMemory: true });
  const toolbar = createElement(ToolTableToolbar, { catalogId: "demo", facets });
  render(createElement(UrlState, null, createElement(CatalogAccessProvider, { access: "read" } as ComponentProps<typeof CatalogAccessProvider>, toolbar)));
  return urls;
}

/** Lets nuqs write the URL. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));

describe("the tools table's toolbar", () => {
  afterEach(cleanup);

  it("goes to the search on '/', but not while a field is being typed in", () => {
    renderToolbar();
    const search = screen.getByTestId("tool-search");
    fireEvent.keyDown(document.body, { key: "/" });
    expect(document.activeElement).toBe(search);

    const since = screen.getByTestId("changed-since-filter");
    since.focus();
    fireEvent.keyDown(since, { key: "/" });
    expect(document.activeElement).toBe(since);
  });

  it("offers each source and tag with how many tools have it, and puts what is picked in the URL", async () => {
    const urls = renderToolbar();
    const sources = screen.getByTestId("source-filter") as HTMLSelectElement;
    expect([...sources.options].map((option) => option.text)).toEqual([
      "All sources",
      "builtin (0)",
      "custom (3)",
      "plugin (0)",
      "mcp (12)",
      "skill (0)",
      "subagent (0)",
    ]);
    fireEvent.change(sources, { target: { value: "mcp" } });
    fireEvent.change(screen.getByTestId("tag-filter"), { target: { value: "mail" } });
    fireEvent.change(screen.getByTestId("state-filter"), { target: { value: "disabled" } });
    await settle();
    expect(urls.at(-1)).toBe("?source=mcp&tag=mail&state=disabled");
    fireEvent.change(sources, { target: { value: "all" } });
    await settle();
    expect(urls.at(-1)).toBe("?tag=mail&state=disabled");
  });

  it("shows the revision an import's tools are filtered by, and lets it go", async () => {
    const urls = renderToolbar("?changedIn=7&tag=gone");
    expect(screen.getByTestId("changed-in-filter").textContent).toContain("Only the tools changed at revision 7");
    // A tag no loaded tool has any more stays picked.
    expect((screen.getByTestId("tag-filter") as HTMLSelectElement).value).toBe("gone");
    fireEvent.click(screen.getByRole("button", { name: "Show every tool again" }));
    await settle();
    expect(urls.at(-1)).toBe("?tag=gone");
    expect(screen.queryByTestId("changed-in-filter")).toBeNull();
  });

  it("offers export to readers, but neither import nor a new tool", () => {
    renderToolbar();
    expect(screen.getByTestId("export-catalog").getAttribute("href")).toBe("/api/catalogs/demo/export");
    expect(screen.queryByTestId("new-tool")).toBeNull();
  });
});
