import { describe, expect, it } from "vitest";
import { booleanSetting, STRUCTURED_OUTPUTS_VARIABLE } from "@/lib/ai/models";

describe("on/off settings", () => {
  it("reads the values the README documents (1 and 0) and their usual spellings", () => {
    for (const on of ["1", "true", "TRUE", "yes", "on", " 1 "])
      expect(booleanSetting({ [STRUCTURED_OUTPUTS_VARIABLE]: on }, STRUCTURED_OUTPUTS_VARIABLE, false), on).toBe(true);
    for (const off of ["0", "false", "False", "no", "off"])
      expect(booleanSetting({ [STRUCTURED_OUTPUTS_VARIABLE]: off }, STRUCTURED_OUTPUTS_VARIABLE, true), off).toBe(false);
  });

  it("keeps the default when unset or empty, and names the variable for anything else", () => {
    expect(booleanSetting({}, STRUCTURED_OUTPUTS_VARIABLE, true)).toBe(true);
    expect(booleanSetting({ [STRUCTURED_OUTPUTS_VARIABLE]: "" }, STRUCTURED_OUTPUTS_VARIABLE, true)).toBe(true);
    expect(() => booleanSetting({ [STRUCTURED_OUTPUTS_VARIABLE]: "nope" }, STRUCTURED_OUTPUTS_VARIABLE, true)).toThrow(
      /TOOLSHED_OPENAI_COMPATIBLE_STRUCTURED_OUTPUTS="nope" must be 1 or 0/,
    );
  });
});
