import "server-only";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { type FailureRecord, type LockoutPolicy, lockedUntilAfter } from "@/lib/auth/lockout";
import type { Db } from "../client";
import { signInFailures } from "../tables";

/**
 * Wrong passwords per key (`email:<address>`, `address:<client address>`), in the database so
 * that every instance sharing it locks the same keys.
 */

/** The records of the given keys that exist. */
export async function findSignInFailures(db: Db, keys: string[]): Promise<Map<string, FailureRecord>> {
  const rows = keys.length ? await db.select().from(signInFailures).where(inArray(signInFailures.key, keys)) : [];
  return new Map(rows.map(({ key, failures, lockedUntil, lastFailureAt }) => [key, { failures, lockedUntil, lastFailureAt }]));
}

/**
 * Counts one more failure for `key` at `now` and locks it as `policy` says. The count is one
 * atomic upsert (parallel failures on several instances each count); the lock follows from the
 * count and is written only while that count is still the latest.
 */
export async function recordSignInFailure(db: Db, key: string, policy: LockoutPolicy, now = new Date()): Promise<FailureRecord> {
  const forgetBefore = new Date(now.getTime() - policy.forgetAfterMs);
  const [counted] = await db
    .insert(signInFailures)
    .values({ key, failures: 1, lockedUntil: null, lastFailureAt: now })
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: {
        failures: sql`case when ${lt(signInFailures.lastFailureAt, forgetBefore)} then 1 else ${signInFailures.failures} + 1 end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: signInFailures.failures });
  const failures = counted.failures;
  const lockedUntil = lockedUntilAfter(policy, failures, now);
  if (lockedUntil) {
    await db
      .update(signInFailures)
      .set({ lockedUntil })
      .where(and(eq(signInFailures.key, key), eq(signInFailures.failures, failures)));
  }
  // A new key is the only way the table grows: forget the records nobody has failed on for long.
  if (failures === 1) await db.delete(signInFailures).where(lt(signInFailures.lastFailureAt, forgetBefore));
  return { failures, lockedUntil, lastFailureAt: now };
}

/** Forgets `key`'s failures (after a successful sign-in with that e-mail). */
export async function clearSignInFailures(db: Db, key: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.key, key));
}
