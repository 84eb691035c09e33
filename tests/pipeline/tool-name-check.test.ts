import { describe, expect, it } from "vitest";
import { nameDistance, suggestToolName, toolListChange, unknownToolMessage, unknownToolNames } from "@/lib/rules/tool-name-check";

const TOOLS = ["read", "write", "edit", "apply_patch", "webfetch", "websearch", "github_create_issue", "github_create_pull_request"];

describe("tool-name checks as one types", () => {
  it("counts edits, a swap of neighbours as one, and stops past the limit", () => {
    expect(nameDistance("edit", "edit")).toBe(0);
    expect(nameDistance("edti", "edit")).toBe(1);
    expect(nameDistance("wirte", "write")).toBe(1);
    expect(nameDistance("aply_patch", "apply_patch")).toBe(1);
    expect(nameDistance("read", "github_create_issue", 2)).toBe(3);
  });

  it("suggests the closest name, the same name in other case first, and nothing when none is close", () => {
    expect(suggestToolName("edti", TOOLS)).toBe("edit");
    expect(suggestToolName("Apply_Patch", TOOLS)).toBe("apply_patch");
    expect(suggestToolName("github_create_isue", TOOLS)).toBe("github_create_issue");
    expect(suggestToolName("webserch", TOOLS)).toBe("websearch");
    expect(suggestToolName("deploy", TOOLS)).toBeUndefined();
  });

  it("lists the unknown names of a list with their positions and a message that names both", () => {
    const unknown = unknownToolNames(["edit", "edti", "deploy"], TOOLS);
    expect(unknown).toEqual([
      { name: "edti", position: 1, suggestion: "edit" },
      { name: "deploy", position: 2 },
    ]);
    expect(unknownToolMessage(unknown[0])).toBe("“edti” is not a tool of this catalog. Did you mean “edit”?");
    expect(unknownToolMessage(unknown[1])).toBe("“deploy” is not a tool of this catalog.");
  });

  it("tells what an edit adds to and removes from a tool list", () => {
    expect(toolListChange(["read", "edit", "write"], ["read", "write", "apply_patch"])).toEqual({
      before: 3,
      after: 3,
      added: ["apply_patch"],
      removed: ["edit"],
    });
  });
});
