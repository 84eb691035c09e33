import { describe, expect, it } from "vitest";
import { parseWith } from "@/lib/http";
import { nameProblem, textProblem } from "@/lib/safe-text";
import { apiTokenBody, createTeamBody } from "@/lib/team-schemas";

const refused = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error as { code: string; field?: string };
  }
  throw new Error("accepted");
};

describe("safe names and text", () => {
  it("refuses every C0 and C1 control, DEL, the bidirectional controls and lone surrogates in names, naming the code point", () => {
    const refusedInNames = [
      ...Array.from({ length: 0x20 }, (_, code) => code),
      ...Array.from({ length: 0x21 }, (_, offset) => 0x7f + offset),
      0x202a,
      0x202b,
      0x202c,
      0x202d,
      0x202e,
      0x2066,
      0x2067,
      0x2068,
      0x2069,
    ];
    for (const code of refusedInNames) expect(nameProblem(`a${String.fromCharCode(code)}b`), code.toString(16)).toBeDefined();
    expect(nameProblem("a\u202eb")).toBe("Contains a bidirectional control character (U+202E), which can disguise how it reads: not allowed in a name.");
    expect(nameProblem("a\u0000")).toBe("Contains a NUL character (U+0000): not allowed in a name.");
    expect(nameProblem("\udc00x")).toContain("lone surrogate (U+DC00)");
    expect(nameProblem("x\ud83d")).toContain("lone surrogate (U+D83D)");
    for (const fine of ["gpt-5", "claude-sonnet-4-5", "Café", "日本語", "🚀 rocket", "a b", "\u200dzwj", "عربي"])
      expect(nameProblem(fine), fine).toBeUndefined();
  });

  it("refuses only NUL and lone surrogates in descriptions and summaries", () => {
    for (const fine of ["line\nbreak", "tab\there", "cr\r\n", "right-to-left \u202e text", "🚀"]) expect(textProblem(fine), fine).toBeUndefined();
    expect(textProblem("nul\u0000")).toBe("Contains a NUL character (U+0000): not allowed in text.");
    expect(textProblem("half \ud800 pair")).toContain("lone surrogate (U+D800)");
  });

  it("is part of the team and token schemas, with the field named", () => {
    expect(refused(() => parseWith(createTeamBody, { name: "Ops\u202e" }))).toMatchObject({ code: "bad_request", field: "name" });
    expect(refused(() => parseWith(createTeamBody, { name: "Ops", id: "ops\u0000" }))).toMatchObject({ code: "bad_request", field: "id" });
    expect(refused(() => parseWith(apiTokenBody, { name: "ci\u001b", scope: "read" }))).toMatchObject({ code: "bad_request", field: "name" });
    expect(parseWith(createTeamBody, { name: " Ops Café " }).name).toBe("Ops Café");
  });
});
