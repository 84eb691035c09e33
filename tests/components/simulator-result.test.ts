import { describe, expect, it } from "vitest";
import type { ToolListResponse } from "@/components/api-client";
import { tokenDifference, whyAnswer } from "@/components/simulator-result";

const result = {
  tools: [{ name: "read" }, { type: "function", function: { name: "bash" } }],
  trace: [
    { stage: "conditions", removed: [{ name: "lsp", reason: "flag off" }], changed: [{ name: "read", reason: "renamed" }], remaining: 3 },
    { stage: "permissions", removed: [{ name: "lsp", reason: "denied" }], changed: [{ name: "read", reason: "described" }], remaining: 2 },
  ],
} as unknown as ToolListResponse;

describe("why a configuration does not see a tool", () => {
  it("names the first stage that removed it, with its reason", () => {
    expect(whyAnswer(result, "lsp")).toEqual({ kind: "removed", stage: "conditions", reason: "flag off" });
  });

  it("says a tool in the final list is there, in any format, with every change made to it", () => {
    expect(whyAnswer(result, "read")).toEqual({ kind: "present", changes: ["renamed", "described"] });
    expect(whyAnswer(result, "bash")).toEqual({ kind: "present", changes: [] });
  });

  it("says when the catalog has no such tool", () => {
    expect(whyAnswer(result, "nope")).toEqual({ kind: "unknown" });
  });
});

describe("the token difference between two configurations", () => {
  it("is signed and grouped, or says the cost is the same", () => {
    expect(tokenDifference(1500, 200)).toBe("+1,300 tokens vs the other");
    expect(tokenDifference(200, 1500)).toBe("-1,300 tokens vs the other");
    expect(tokenDifference(7, 7)).toBe("same token cost");
  });
});
