import { describe, expect, it } from "vitest";
import { withContentKeys } from "@/components/content-keys";

describe("withContentKeys", () => {
  it("keys items by their text, equal items apart, and a text that looks like a counted key apart from the count", () => {
    const keyed = withContentKeys(["a", "b", "a", "2:a"], (text) => text);
    expect(keyed.map(([key]) => key)).toEqual(["1:a", "1:b", "2:a", "1:2:a"]);
    expect(new Set(keyed.map(([key]) => key)).size).toBe(4);
    expect(keyed.map(([, item]) => item)).toEqual(["a", "b", "a", "2:a"]);
  });
});
