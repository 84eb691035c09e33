/**
 * Request rate limits per caller (`user:<id>`, `token:<id>`, or e.g. an address for sign-in).
 *
 * Every request is charged to exactly one class, the strictest that applies: `auth` for sign-in
 * attempts, `model` for routes that call a language model (LLM selector, playground), `write` for
 * changes, `read` for the rest. Each class allows a number of requests per caller in a fixed
 * 60-second window, set by environment (`0` = unlimited). Classes and callers never share points,
 * so a request refused in one class costs nothing in another, and one caller cannot use up
 * another's. The counters live where the limiters' factory keeps them (`rate-limiter-flexible`):
 * this process's memory by default; a store the instances share when several serve one database
 * (app/_services/rate-limits.ts chooses).
 */
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export const RATE_LIMIT_CLASSES = ["read", "write", "model", "auth"] as const;
export type RateLimitClass = (typeof RATE_LIMIT_CLASSES)[number];

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

const RATE_LIMIT_WINDOW_SECONDS = 60;

/** The variable and default (requests per window) of each class. */
const RATE_LIMIT_SETTINGS: Readonly<Record<RateLimitClass, { variable: string; fallback: number }>> = {
  read: { variable: "TOOLSHED_RATE_LIMIT_READ", fallback: 600 },
  write: { variable: "TOOLSHED_RATE_LIMIT_WRITE", fallback: 120 },
  model: { variable: "TOOLSHED_RATE_LIMIT_MODEL", fallback: 30 },
  auth: { variable: "TOOLSHED_RATE_LIMIT_AUTH", fallback: 10 },
};

/** The environment as plain strings (e.g. `process.env`). */
export type RateLimitEnv = Readonly<Record<string, string | undefined>>;

/** Requests per window of each class (`0` = unlimited); an unset or empty variable takes its default. */
export function rateLimitsFromEnv(env: RateLimitEnv): Record<RateLimitClass, number> {
  const limits = {} as Record<RateLimitClass, number>;
  for (const kind of RATE_LIMIT_CLASSES) {
    const { variable, fallback } = RATE_LIMIT_SETTINGS[kind];
    const value = env[variable]?.trim();
    if (!value) {
      limits[kind] = fallback;
    } else if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))) {
      limits[kind] = Number(value);
    } else {
      throw new Error(`${variable}="${env[variable]}" must be a whole number of requests per ${RATE_LIMIT_WINDOW_SECONDS} seconds (0 = unlimited).`);
    }
  }
  return limits;
}

export interface RateLimits {
  /** Charges one request of `kind` to `key`, or says how long until the key may try again. */
  consume(kind: RateLimitClass, key: string): Promise<RateLimitResult>;
}

/** What a class's limiter is made with: its `keyPrefix` keeps the classes apart in a store they share. */
interface LimiterOptions {
  keyPrefix: string;
  points: number;
  duration: number;
}

/** Makes the limiter of one class. */
export type LimiterFactory = (options: LimiterOptions) => RateLimiterAbstract;

/** Counters in this process's memory: each instance counts alone. */
const inMemoryLimiters: LimiterFactory = (options) => new RateLimiterMemory(options);

/** Independent limiters for the given configuration, from `limiterFor` (tests build their own; the app shares one). */
export function createRateLimits(env: RateLimitEnv, limiterFor: LimiterFactory = inMemoryLimiters): RateLimits {
  const limits = rateLimitsFromEnv(env);
  const limiters = new Map<RateLimitClass, RateLimiterAbstract>();
  for (const kind of RATE_LIMIT_CLASSES) {
    if (limits[kind] > 0) limiters.set(kind, limiterFor({ keyPrefix: `rate-limit:${kind}`, points: limits[kind], duration: RATE_LIMIT_WINDOW_SECONDS }));
  }
  return {
    async consume(kind, key) {
      const limiter = limiters.get(kind);
      if (!limiter) return { ok: true };
      try {
        await limiter.consume(key);
        return { ok: true };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
  };
}
