import { describe, expect, it } from "vitest";
import { ADDRESS_LOCKOUT, EMAIL_LOCKOUT, lockDurationMs, lockedUntilAfter, secondsLocked } from "@/lib/auth/lockout";

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);

describe("lockout policy", () => {
  it("lets an account fail four times, then locks it for 30 s doubling with each failure, up to an hour", () => {
    const durations = Array.from({ length: 14 }, (_, index) => lockDurationMs(EMAIL_LOCKOUT, index + 1) / 1000);
    expect(durations).toEqual([0, 0, 0, 0, 30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  });

  it("allows an address, which many people may share, more failures before the same doubling", () => {
    expect(lockDurationMs(ADDRESS_LOCKOUT, 19)).toBe(0);
    expect(lockDurationMs(ADDRESS_LOCKOUT, 20)).toBe(30_000);
    expect(lockDurationMs(ADDRESS_LOCKOUT, 21)).toBe(60_000);
  });

  it("says until when and for how many seconds a key is locked", () => {
    expect(lockedUntilAfter(EMAIL_LOCKOUT, 4, at(0))).toBeNull();
    const until = lockedUntilAfter(EMAIL_LOCKOUT, 6, at(0));
    expect(until).toEqual(at(60_000));
    const record = { failures: 6, lockedUntil: until, lastFailureAt: at(0) };
    expect(secondsLocked(record, at(0))).toBe(60);
    expect(secondsLocked(record, at(59_001))).toBe(1);
    expect(secondsLocked(record, at(60_000))).toBe(0);
    expect(secondsLocked(undefined, at(0))).toBe(0);
  });
});
