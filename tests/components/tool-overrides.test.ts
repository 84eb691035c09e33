// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OverriddenNote, ToolOverrides } from "@/components/tool-overrides";
import type { DefinitionOverride } from "@/lib/rules/overrides";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// The tool as its MCP server defines it after a re-sync: `limit` has a maximum now, `order` is gone.
const tool = {
  name: "shop__search",
  summary: "Search notes.",
  description: "Searches notes and their attachments.",
  inputSchema: { type: "object" as const, properties: { query: { type: "string" }, limit: { type: "integer", maximum: 100, default: 10 } } },
  meta: { mcpName: "search", title: "Search", annotations: { readOnlyHint: false, openWorldHint: true } },
};
const overrides: DefinitionOverride[] = [
  {
    tool: "shop__search",
    models: [],
    description: "Search the team's notes.",
    defaults: { limit: 25, order: "desc" },
    annotations: { readOnlyHint: true, title: "Note search" },
  },
  { tool: "shop__search", models: ["gpt-*"], defaults: { limit: 500 } },
];

const row = (panel: HTMLElement, field: string) => within(panel).getAllByTestId(`override-field-${field}`);

describe("a tool's overrides on its page", () => {
  it("shows each overridden field as its source's value beside the override's, and says which are not applied and why", () => {
    render(createElement(ToolOverrides, { catalogId: "team", tool, overrides }));
    const panel = screen.getByTestId("tool-overrides");
    expect(within(panel).getByText("For every model")).toBeTruthy();
    expect(within(panel).getByText("For models matching gpt-*")).toBeTruthy();
    expect(row(panel, "description")[0].textContent).toBe("descriptionSearches notes and their attachments.Search the team's notes.");
    const [everyModel, gpt] = row(panel, "default of limit");
    expect(everyModel.textContent).toBe("default of limit1025");
    expect(gpt.textContent).toContain(
      'Not applied: The default 500 for "limit" of tool "shop__search" does not match the parameter\'s schema: must be <= 100.',
    );
    expect(row(panel, "default of order")[0].textContent).toContain(
      'Not applied: Tool "shop__search" has no parameter "order" (its parameters: query, limit).',
    );
    expect(row(panel, "annotation title")[0].textContent).toBe("annotation titleSearchNote search");
    expect(row(panel, "annotation readOnlyHint")[0].textContent).toBe("annotation readOnlyHintfalsetrue");
    expect(within(panel).queryByTestId("override-field-annotation openWorldHint")).toBeNull();
  });

  it("shows two overrides for the same models, each under a key of its own (the later one wins)", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const twice: DefinitionOverride[] = [
      { tool: "shop__search", models: [], defaults: { limit: 25 } },
      { tool: "shop__search", models: [], annotations: { readOnlyHint: true } },
    ];
    render(createElement(ToolOverrides, { catalogId: "team", tool, overrides: twice }));
    const panel = screen.getByTestId("tool-overrides");
    expect(within(panel).getAllByText("For every model")).toHaveLength(2);
    expect(row(panel, "default of limit")).toHaveLength(1);
    expect(row(panel, "annotation readOnlyHint")).toHaveLength(1);
    expect(errors.mock.calls.flat().join(" ")).not.toContain("same key");
  });

  it("shows nothing for a tool the catalog does not override, and marks overridden fields beside a source's change", () => {
    const { container } = render(createElement(ToolOverrides, { catalogId: "team", tool, overrides: [] }));
    expect(container.textContent).toBe("");
    render(createElement(OverriddenNote, { tool, overrides }));
    expect(screen.getByTestId("overridden-note").textContent).toContain(
      "The catalog overrides “description”, “default of limit”, “default of order”, “annotation title”, “annotation readOnlyHint”",
    );
  });
});
