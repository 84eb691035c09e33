import { describe, expect, it } from "vitest";
import { compileModelPattern, compileNamePattern, modelPatternTester, validatePattern } from "../../lib/rules/patterns";

describe("model patterns", () => {
  it("match as a case-insensitive substring when there is no wildcard", () => {
    const matches = compileModelPattern("gpt-");
    expect(matches("gpt-5")).toBe(true);
    expect(matches("openai/GPT-5-mini")).toBe(true);
    expect(matches("claude-sonnet-4-5")).toBe(false);
  });

  it("match the whole id when they contain a wildcard", () => {
    const matches = compileModelPattern("gpt-5*");
    expect(matches("gpt-5")).toBe(true);
    expect(matches("GPT-5-mini")).toBe(true);
    expect(matches("openai/gpt-5")).toBe(false);
    expect(compileModelPattern("*/gpt-*")("openai/gpt-4o")).toBe(true);
  });

  it("treat regular-expression characters literally", () => {
    expect(compileModelPattern("gpt-4.1*")("gpt-4x1-mini")).toBe(false);
    expect(compileModelPattern("gpt-4.1*")("gpt-4.1-mini")).toBe(true);
  });
});

describe("name patterns", () => {
  it("match whole names only, case-sensitively", () => {
    expect(compileNamePattern("edit")("edit")).toBe(true);
    expect(compileNamePattern("edit")("edit_notes")).toBe(false);
    expect(compileNamePattern("edit")("Edit")).toBe(false);
  });

  it("expand wildcards", () => {
    expect(compileNamePattern("task:*")("task:explore")).toBe(true);
    expect(compileNamePattern("task:*")("task")).toBe(false);
    expect(compileNamePattern("mcp_*_read")("mcp_github_read")).toBe(true);
    expect(compileNamePattern("*")("skill:pdf")).toBe(true);
  });
});

describe("validatePattern", () => {
  it("accepts ordinary patterns", () => {
    expect(validatePattern("gpt-5*", "p")).toEqual([]);
    expect(validatePattern("task:explore", "p")).toEqual([]);
    expect(validatePattern("accounts/fireworks/models/llama-v3p1", "p")).toEqual([]);
    expect(validatePattern("apply_patch", "p")).toEqual([]);
  });

  it("rejects empty, overlong and oddly-charactered patterns", () => {
    expect(validatePattern("", "include[0]")).toEqual([{ field: "include[0]", message: expect.stringContaining("empty") }]);
    expect(validatePattern("a".repeat(201), "p")[0].message).toContain("201");
    expect(validatePattern("gpt 5", "p")).toHaveLength(1);
    expect(validatePattern("gpt-(5|4)", "p")).toHaveLength(1);
  });
});

describe("glob edge cases", () => {
  it.each([
    ["a*a", "a", false],
    ["a*a", "aa", true],
    ["*ab*ab", "abab", true],
    ["*ab*ab", "abxab", true],
    ["*ab*ab", "ab", false],
    ["a**b", "ab", true],
    ["a*b*c", "acb", false],
    ["a*b*c", "abbbc", true],
    ["*", "", true],
  ])("%s against %s: %s", (pattern, subject, expected) => {
    expect(compileNamePattern(pattern)(subject)).toBe(expected);
  });
});

describe("modelPatternTester", () => {
  it("answers with model-pattern semantics for its model id", () => {
    const matches = modelPatternTester("GPT-5-mini");
    expect(matches("gpt-5")).toBe(true);
    expect(matches("gpt-5")).toBe(true);
    expect(matches("*-mini")).toBe(true);
    expect(matches("gpt-4*")).toBe(false);
  });
});
