import { describe, expect, it } from "vitest";
import { bulkToastText, tagsIn } from "@/components/tool-bulk";

describe("the Tools page's bulk change", () => {
  it("says what it did, what was already so, and what it kept and why", () => {
    const result = {
      action: "delete" as const,
      message: "Deleted 2 tools",
      revision: 7,
      changed: ["a", "b"],
      unchanged: 0,
      skipped: [{ name: "read", reason: "a builtin tool: its source owns it, so it is not deleted (disable it instead)" }],
      undoable: true,
    };
    expect(bulkToastText(result)).toBe("Deleted 2 tools · 1 kept: a builtin tool: its source owns it, so it is not deleted (disable it instead)");
    expect(bulkToastText({ ...result, message: "Disabled 3 tools", unchanged: 1200, skipped: [] })).toBe("Disabled 3 tools · 1,200 already so");
  });

  it("reads tags separated by commas or spaces, each once", () => {
    expect(tagsIn(" billing, reviewed  billing ")).toEqual(["billing", "reviewed"]);
    expect(tagsIn("")).toEqual([]);
  });
});
