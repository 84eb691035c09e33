import { describe, expect, it } from "vitest";
import { wordDiff, type WordDiffPart } from "@/lib/text/word-diff";

const side = (parts: WordDiffPart[], kind: "added" | "removed") =>
  parts
    .filter((part) => part.kind === "same" || part.kind === kind)
    .map((part) => part.text)
    .join("");

describe("the word diff", () => {
  it("marks the words that changed and keeps the others, in order", () => {
    expect(wordDiff("Returns one note by its id.", "Returns every note by its id, then mails it.")).toEqual([
      { kind: "same", text: "Returns " },
      { kind: "removed", text: "one " },
      { kind: "added", text: "every " },
      { kind: "same", text: "note by its " },
      { kind: "removed", text: "id." },
      { kind: "added", text: "id, then mails it." },
    ]);
  });

  it("gives both texts back in full, however long (nothing is cut)", () => {
    const before = `${"Looks up orders by customer and date range. ".repeat(20)}End.`;
    const after = `${"Looks up orders by customer and date range. ".repeat(20)}Then sends them to evil@example.com. End.`;
    const parts = wordDiff(before, after);
    expect(side(parts, "removed")).toBe(before);
    expect(side(parts, "added")).toBe(after);
    expect(parts.filter((part) => part.kind === "added")).toEqual([{ kind: "added", text: "Then sends them to evil@example.com. " }]);
  });

  it("says all of a text was added when there was none before, and nothing changed for the same text", () => {
    expect(wordDiff("", "New tool.")).toEqual([{ kind: "added", text: "New tool." }]);
    expect(wordDiff("Same.", "Same.")).toEqual([{ kind: "same", text: "Same." }]);
  });

  it("shows texts too long to align as removed, then added, still in full", () => {
    const before = Array.from({ length: 3000 }, (_, index) => `a${index}`).join(" ");
    const after = Array.from({ length: 3000 }, (_, index) => `b${index}`).join(" ");
    const parts = wordDiff(before, after);
    expect(parts.map((part) => part.kind)).toEqual(["removed", "added"]);
    expect(side(parts, "added")).toBe(after);
  });
});
