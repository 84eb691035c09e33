import { describe, expect, it } from "vitest";
import { Lru } from "@/lib/tools/lru";

describe("Lru", () => {
  it("keeps at most maxEntries, dropping the least recently used", () => {
    const cache = new Lru<string, number>({ maxEntries: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect([...cache.keys()]).toEqual(["a", "c"]);
    expect(cache.has("b")).toBe(false);
    expect(cache.size).toBe(2);
  });

  it("keeps the total weight within maxWeight and never keeps a value heavier than all of it", () => {
    const cache = new Lru<string, string>({ maxEntries: 10, maxWeight: 10, weigh: (value) => value.length });
    cache.set("a", "xxxx");
    cache.set("b", "xxxx");
    cache.set("c", "xxxx");
    expect([...cache.keys()]).toEqual(["b", "c"]);
    expect(cache.weight).toBe(8);
    cache.set("huge", "x".repeat(11));
    expect(cache.has("huge")).toBe(false);
    expect(cache.weight).toBe(8);
    cache.set("b", "x");
    expect(cache.weight).toBe(5);
  });

  it("creates a missing value once, peeks without touching, and rejects bad bounds", () => {
    const cache = new Lru<string, number>({ maxEntries: 2 });
    let made = 0;
    const make = () => ++made;
    expect(cache.getOrCreate("a", make)).toBe(1);
    expect(cache.getOrCreate("a", make)).toBe(1);
    cache.set("b", 2);
    expect(cache.peek("a")).toBe(1);
    cache.set("c", 3);
    expect(cache.has("a")).toBe(false);
    expect(cache.delete("b")).toBe(true);
    cache.clear();
    expect(cache.size + cache.weight).toBe(0);
    expect(() => new Lru({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new Lru({ maxEntries: 1, maxWeight: 0 })).toThrow(RangeError);
  });
});
