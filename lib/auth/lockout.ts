/**
 * When repeated wrong passwords lock a key (an account's e-mail, or a client's address): the first
 * few failures are free, each further one locks the key for twice as long as the one before, up
 * to a cap; failures are forgotten after a quiet period. While a key is locked every sign-in with
 * it is refused unchecked, the right password included, so guessing gains nothing by speed.
 */

export interface LockoutPolicy {
  /** Failures allowed before the key is locked. */
  freeFailures: number;
  /** The lock after the first failure beyond the free ones; each further failure doubles it. */
  firstLockMs: number;
  maxLockMs: number;
  /** Failures this long ago (counted from the latest) are forgotten. */
  forgetAfterMs: number;
}

const SECOND = 1000;
const HOUR = 3600 * SECOND;

/** For an account: a person mistypes a few times; a guesser soon waits an hour per guess. */
export const EMAIL_LOCKOUT: LockoutPolicy = { freeFailures: 4, firstLockMs: 30 * SECOND, maxLockMs: HOUR, forgetAfterMs: 24 * HOUR };

/**
 * For a client address, which many people may share (an office, a proxy the operator did not
 * name in TOOLSHED_TRUSTED_PROXIES): more free failures, so that their typos do not lock each other out.
 */
export const ADDRESS_LOCKOUT: LockoutPolicy = { ...EMAIL_LOCKOUT, freeFailures: 19 };

/** A key's record: failures since it was last forgotten or cleared. */
export interface FailureRecord {
  failures: number;
  lockedUntil: Date | null;
  lastFailureAt: Date;
}

/** How long the `failures`-th failure locks the key (0 while failures are free). */
export function lockDurationMs(policy: LockoutPolicy, failures: number): number {
  const beyond = failures - policy.freeFailures;
  if (beyond <= 0) return 0;
  return Math.min(policy.maxLockMs, policy.firstLockMs * 2 ** (beyond - 1));
}

/** Until when a key is locked after its `failures`-th failure at `now`, or null when it is not. */
export function lockedUntilAfter(policy: LockoutPolicy, failures: number, now: Date): Date | null {
  const duration = lockDurationMs(policy, failures);
  return duration > 0 ? new Date(now.getTime() + duration) : null;
}

/** Whole seconds until the key may try again (at least 1), or 0 when it is not locked at `now`. */
export function secondsLocked(record: FailureRecord | undefined, now: Date): number {
  const until = record?.lockedUntil?.getTime() ?? 0;
  return until > now.getTime() ? Math.max(1, Math.ceil((until - now.getTime()) / SECOND)) : 0;
}
