import { describe, expect, it } from "vitest";
import { bulkSubject, clickRow, isSelected, NO_SELECTION, selectionCount, toggleLoaded } from "@/components/tool-selection";

const loaded = ["a", "b", "c", "d", "e"];

describe("the tools table's selection", () => {
  it("shift-click selects the range from the last row clicked, and unticks it the same way", () => {
    let selection = clickRow(NO_SELECTION, loaded, 1, true, false);
    selection = clickRow(selection, loaded, 3, true, true);
    expect(selectionCount(selection)).toBe(3);
    expect(loaded.filter((name) => isSelected(selection, name))).toEqual(["b", "c", "d"]);
    selection = clickRow(selection, loaded, 2, false, true);
    expect(loaded.filter((name) => isSelected(selection, name))).toEqual(["b"]);
  });

  it("a click without shift changes one row", () => {
    const selection = clickRow(clickRow(NO_SELECTION, loaded, 0, true, false), loaded, 4, true, false);
    expect(loaded.filter((name) => isSelected(selection, name))).toEqual(["a", "e"]);
  });

  it("all matching counts every match and asks the server by the filters, without the sort", () => {
    const selection = { kind: "matching" as const, total: 12_000 };
    expect(selectionCount(selection)).toBe(12_000);
    expect(isSelected(selection, "never-loaded")).toBe(true);
    expect(bulkSubject(selection, { q: "git", source: "", sort: "-name" })).toEqual({ matching: { q: "git" } });
    const narrowed = clickRow(selection, loaded, 0, false, false);
    expect(bulkSubject(narrowed, {})).toEqual({ names: ["b", "c", "d", "e"] });
  });

  it("the header's checkbox selects the loaded rows, then none", () => {
    const all = toggleLoaded(NO_SELECTION, loaded);
    expect(selectionCount(all)).toBe(5);
    expect(selectionCount(toggleLoaded(all, loaded))).toBe(0);
  });
});
