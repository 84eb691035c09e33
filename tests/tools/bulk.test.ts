import { describe, expect, it } from "vitest";
import { describeBulk, namesInWords, parseSort, retagged, sortTools } from "@/lib/tools/bulk";

describe("bulk tool changes", () => {
  it("retags: adds once at the end, removes, and a tag both added and removed goes", () => {
    expect(retagged(["a", "b"], ["c", "a"], ["b"])).toEqual(["a", "c"]);
    expect(retagged(["a"], ["x"], ["x"])).toEqual(["a"]);
  });

  it("names a few tools and counts the rest", () => {
    expect(namesInWords(["a", "b"])).toBe('"a", "b"');
    expect(namesInWords(["a", "b", "c", "d", "e", "f", "g"])).toBe('"a", "b", "c", "d", "e" and 2 more');
    expect(describeBulk("move", 1, "ops")).toBe('Moved 1 tool to catalog "ops"');
    expect(describeBulk("disable", 12_000)).toBe("Disabled 12,000 tools");
  });

  it("reads a sort and sorts by it, ties in registration order", () => {
    expect(parseSort("-tags")).toEqual({ column: "tags", descending: true });
    expect(parseSort("colour")).toBeUndefined();
    const tools = [
      { id: 1, name: "b", source: "mcp", enabled: false, summary: "Z", tags: [] },
      { id: 2, name: "A", source: "custom", enabled: true, summary: "y", tags: ["x"] },
      { id: 3, name: "c", source: "custom", enabled: true, summary: "x", tags: [] },
    ];
    expect(sortTools(tools, { column: "name", descending: false }).map((tool) => tool.id)).toEqual([2, 1, 3]);
    expect(sortTools(tools, { column: "enabled", descending: false }).map((tool) => tool.id)).toEqual([2, 3, 1]);
    expect(sortTools(tools, { column: "source", descending: true }).map((tool) => tool.id)).toEqual([1, 2, 3]);
  });
});
