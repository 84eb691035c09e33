import { describe, expect, it } from "vitest";
import { withContentKeys } from "@/components/content-keys";
import { editRowAt, rowValues, toEditableRow, toEditableRows } from "@/components/editable-rows";

describe("withContentKeys", () => {
  it("keys items by their text, equal items apart, and a text that looks like a counted key apart from the count", () => {
    const keyed = withContentKeys(["a", "b", "a", "2:a"], (text) => text);
    expect(keyed.map(([key]) => key)).toEqual(["1:a", "1:b", "2:a", "1:2:a"]);
    expect(new Set(keyed.map(([key]) => key)).size).toBe(4);
    expect(keyed.map(([, item]) => item)).toEqual(["a", "b", "a", "2:a"]);
  });
});

describe("editable rows", () => {
  it("give each row its own key, kept when a row is edited or one before it is removed", () => {
    const rows = [...toEditableRows([{ pattern: "*" }, { pattern: "read" }]), toEditableRow({ pattern: "write" })];
    expect(new Set(rows.map((row) => row.key)).size).toBe(3);
    const edited = editRowAt(rows, 2, { pattern: "write_file" });
    expect(rowValues(edited)).toEqual([{ pattern: "*" }, { pattern: "read" }, { pattern: "write_file" }]);
    expect(edited.map((row) => row.key)).toEqual(rows.map((row) => row.key));
    const afterRemoval = edited.filter((_, index) => index !== 0);
    expect(afterRemoval.map((row) => row.key)).toEqual([rows[1].key, rows[2].key]);
    expect(rowValues(rows)).toEqual([{ pattern: "*" }, { pattern: "read" }, { pattern: "write" }]);
  });
});
