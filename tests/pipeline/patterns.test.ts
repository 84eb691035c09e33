import { describe, expect, it } from "vitest";
import { compileModelPattern, compileNamePattern, modelPatternTester, PATTERN_MAX, validatePattern } from "../../lib/rules/patterns";

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

describe("pathological globs", () => {
  const pattern = "*a*a*a*a*a*a*a*a*a*a*b";

  it("finish against 64-character names (a backtracking matcher hangs here)", () => {
    const names = ["a".repeat(64), `${"a".repeat(63)}b`, `${"a".repeat(63)}c`, `b${"a".repeat(63)}`, "ab".repeat(32)];
    expect(names.map((name) => compileNamePattern(pattern)(name))).toEqual([false, true, false, false, true]);
    expect(names.map((name) => compileModelPattern(pattern)(name.toUpperCase()))).toEqual([false, true, false, false, true]);
  });

  it("finish at the length limit against long ids", () => {
    const longest = `${"*a".repeat(PATTERN_MAX / 2 - 1)}*b`;
    expect(validatePattern(longest, "p")).toEqual([]);
    expect(compileModelPattern(longest)("a".repeat(10_000))).toBe(false);
    expect(compileNamePattern(longest)(`${"a".repeat(10_000)}b`)).toBe(true);
  });
});

/** A deterministic generator, so a failure names a case that can be replayed. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

function randomText(next: (below: number) => number, alphabet: string[], maxLength: number): string {
  return Array.from({ length: next(maxLength + 1) }, () => alphabet[next(alphabet.length)]).join("");
}

const isLineBreak = (char: string) => /[\n\r\u2028\u2029]/.test(char);

/** Reference glob by dynamic programming: `*` is any run of characters other than line breaks. */
function referenceGlob(pattern: string, subject: string, same: (a: string, b: string) => boolean): boolean {
  // row[j]: the pattern read so far matches subject.slice(0, j).
  let row = Array.from({ length: subject.length + 1 }, (_, j) => j === 0);
  for (const token of pattern) {
    const next = Array.from({ length: subject.length + 1 }, () => false);
    for (let j = 0; j <= subject.length; j++) {
      if (token === "*") next[j] = row[j] || (j > 0 && next[j - 1] && !isLineBreak(subject[j - 1]));
      else next[j] = j > 0 && row[j - 1] && same(token, subject[j - 1]);
    }
    row = next;
  }
  return row[subject.length];
}

/** The regular-expression matcher this module used before, as an oracle for its exact semantics. */
function legacyGlob(pattern: string, subject: string, flags: string): boolean {
  const body = pattern
    .split("*")
    .map((literal) => literal.replace(/[.+?^${}()|[\]\\/-]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, flags).test(subject);
}

describe("globs agree with a reference matcher", () => {
  const asciiUpper = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

  it("on random short patterns and names (case-sensitive)", () => {
    const next = random(7);
    const alphabet = ["a", "b", "A", "-", ".", "\n"];
    for (let round = 0; round < 4_000; round++) {
      const pattern = randomText(next, [...alphabet, "*", "*"], 8);
      const subject = randomText(next, alphabet, 12);
      if (!pattern.includes("*") || pattern === "*") continue;
      const expected = referenceGlob(pattern, subject, (a, b) => a === b);
      expect([pattern, subject, compileNamePattern(pattern)(subject)]).toEqual([pattern, subject, expected]);
      expect(legacyGlob(pattern, subject, "")).toBe(expected);
    }
  });

  it("on random short patterns and model ids (case-insensitive)", () => {
    const next = random(11);
    const alphabet = ["a", "b", "A", "B", "/", "\r"];
    for (let round = 0; round < 4_000; round++) {
      const pattern = `*${randomText(next, [...alphabet, "*"], 7)}`;
      const subject = randomText(next, alphabet, 12);
      const expected = referenceGlob(pattern, subject, asciiUpper);
      expect([pattern, subject, compileModelPattern(pattern)(subject)]).toEqual([pattern, subject, expected]);
    }
  });

  it("fold case and line breaks exactly as the regular expression did, non-ASCII included", () => {
    const next = random(13);
    const alphabet = ["k", "K", "\u212a", "s", "S", "\u017f", "\u00df", "\u00e9", "\u00c9", "\n", "\u2028", "\ud83d"];
    for (let round = 0; round < 4_000; round++) {
      const pattern = `${randomText(next, [...alphabet, "*"], 6)}*`;
      const subject = randomText(next, alphabet, 8);
      expect([pattern, subject, compileModelPattern(pattern)(subject)]).toEqual([pattern, subject, legacyGlob(pattern, subject, "i")]);
      // A lone "*" name pattern matches every key, line breaks or not, as it always did.
      const legacyName = pattern === "*" || legacyGlob(pattern, subject, "");
      expect([pattern, subject, compileNamePattern(pattern)(subject)]).toEqual([pattern, subject, legacyName]);
    }
  });
});
