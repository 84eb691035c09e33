import { describe, expect, it } from "vitest";
import { LocalIndexCache } from "../../lib/selection/local";
import type { SelectorCandidate } from "../../lib/selection/types";

const catalog = (name: string): SelectorCandidate[] => [{ name, summary: "Search the web" }];

describe("LocalIndexCache", () => {
  it("builds once per key and reuses the index", () => {
    const cache = new LocalIndexCache(2);
    let loads = 0;
    const load = () => {
      loads++;
      return catalog("web_search");
    };
    const first = cache.get("catalog-1@3", load);
    expect(cache.get("catalog-1@3", load)).toBe(first);
    expect(loads).toBe(1);
    expect(cache.get("catalog-1@4", load)).not.toBe(first);
    expect(loads).toBe(2);
  });

  it("evicts the least recently used key beyond its capacity", () => {
    const cache = new LocalIndexCache(2);
    cache.get("a@1", () => catalog("a"));
    cache.get("b@1", () => catalog("b"));
    cache.get("a@1", () => catalog("a"));
    cache.get("c@1", () => catalog("c"));
    expect(cache.has("a@1")).toBe(true);
    expect(cache.has("b@1")).toBe(false);
    expect(cache.has("c@1")).toBe(true);
    expect(cache.size).toBe(2);
  });

  it("rejects a capacity below one", () => {
    expect(() => new LocalIndexCache(0)).toThrow(RangeError);
  });
});
