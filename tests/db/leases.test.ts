import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { releaseLease, takeLease } from "@/db/queries/leases";
import { freshDatabase } from "../support/fresh-database";

const TTL = 10_000;
const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
});

describe("leases", () => {
  it("go to one of two holders asking at once, and to one of many", async () => {
    const pair = await Promise.all(["a", "b"].map((holder) => takeLease(db, "pair", holder, TTL, at(0))));
    expect(pair.filter(Boolean)).toHaveLength(1);
    const many = await Promise.all(Array.from({ length: 12 }, (_, index) => takeLease(db, "many", `holder-${index}`, TTL, at(0))));
    expect(many.filter(Boolean)).toHaveLength(1);
  });

  it("stay with their holder until they expire, then go to whoever asks first", async () => {
    expect(await takeLease(db, "sync", "a", TTL, at(0))).toBe(true);
    expect(await takeLease(db, "sync", "b", TTL, at(TTL - 1))).toBe(false);
    expect(await takeLease(db, "sync", "b", TTL, at(TTL))).toBe(true);
    expect(await takeLease(db, "sync", "a", TTL, at(TTL + 1))).toBe(false);
    // Another lease's name is another lease.
    expect(await takeLease(db, "retention", "a", TTL, at(TTL + 1))).toBe(true);
  });

  it("are renewed by their holder: each renewal runs the expiry from then", async () => {
    expect(await takeLease(db, "sync", "a", TTL, at(0))).toBe(true);
    expect(await takeLease(db, "sync", "a", TTL, at(TTL - 1))).toBe(true);
    expect(await takeLease(db, "sync", "b", TTL, at(TTL + 1))).toBe(false);
    expect(await takeLease(db, "sync", "a", TTL, at(2 * TTL - 2))).toBe(true);
    expect(await takeLease(db, "sync", "b", TTL, at(3 * TTL - 3))).toBe(false);
    expect(await takeLease(db, "sync", "b", TTL, at(3 * TTL - 2))).toBe(true);
  });

  it("released by their holder go to the next at once; another's release changes nothing", async () => {
    expect(await takeLease(db, "sync", "a", TTL, at(0))).toBe(true);
    await releaseLease(db, "sync", "b");
    expect(await takeLease(db, "sync", "b", TTL, at(1))).toBe(false);
    await releaseLease(db, "sync", "a");
    expect(await takeLease(db, "sync", "b", TTL, at(2))).toBe(true);
  });
});
