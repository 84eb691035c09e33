import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { clearSignInFailures, findSignInFailures, recordSignInFailure } from "@/db/queries/sign-in-failures";
import { EMAIL_LOCKOUT } from "@/lib/auth/lockout";
import { freshDatabase } from "../support/fresh-database";

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
const HOUR = 3_600_000;

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
});

describe("sign-in failures", () => {
  it("count per key and lock from the fifth failure, twice as long each time", async () => {
    const locks: (number | null)[] = [];
    for (let failure = 0; failure < 7; failure++) {
      const record = await recordSignInFailure(db, "email:ada@example.com", EMAIL_LOCKOUT, at(failure * 1000));
      locks.push(record.lockedUntil ? record.lockedUntil.getTime() - at(failure * 1000).getTime() : null);
    }
    expect(locks).toEqual([null, null, null, null, 30_000, 60_000, 120_000]);
    const stored = (await findSignInFailures(db, ["email:ada@example.com", "email:other@example.com"])).get("email:ada@example.com");
    expect(stored).toEqual({ failures: 7, lockedUntil: at(6000 + 120_000), lastFailureAt: at(6000) });
  });

  it("count every one of many failures at once", async () => {
    await Promise.all(Array.from({ length: 12 }, () => recordSignInFailure(db, "address:203.0.113.9", EMAIL_LOCKOUT, at(0))));
    expect((await findSignInFailures(db, ["address:203.0.113.9"])).get("address:203.0.113.9")?.failures).toBe(12);
  });

  it("are forgotten after a quiet day, and cleared on request", async () => {
    for (let failure = 0; failure < 5; failure++) await recordSignInFailure(db, "email:ada@example.com", EMAIL_LOCKOUT, at(0));
    const later = await recordSignInFailure(db, "email:ada@example.com", EMAIL_LOCKOUT, at(24 * HOUR + 1));
    expect(later).toMatchObject({ failures: 1, lockedUntil: null });
    await recordSignInFailure(db, "address:203.0.113.9", EMAIL_LOCKOUT, at(24 * HOUR + 1));
    await clearSignInFailures(db, "email:ada@example.com");
    expect([...(await findSignInFailures(db, ["email:ada@example.com", "address:203.0.113.9"])).keys()]).toEqual(["address:203.0.113.9"]);
  });

  it("of keys nobody has failed on for a day are dropped when a new key fails", async () => {
    await recordSignInFailure(db, "email:old@example.com", EMAIL_LOCKOUT, at(0));
    await recordSignInFailure(db, "email:new@example.com", EMAIL_LOCKOUT, at(24 * HOUR + 1));
    expect([...(await findSignInFailures(db, ["email:old@example.com", "email:new@example.com"])).keys()]).toEqual(["email:new@example.com"]);
  });
});
