import { afterEach, describe, expect, it, vi } from "vitest";
import { consumeRateLimit, resetRateLimits } from "@/app/_services/rate-limits";
import { createRateLimits, RATE_LIMIT_CLASSES, rateLimitsFromEnv, type RateLimitClass, type RateLimits } from "../lib/rate-limit";

async function consumeTimes(limits: RateLimits, kind: RateLimitClass, key: string, times: number) {
  const results = [];
  for (let index = 0; index < times; index++) results.push(await limits.consume(kind, key));
  return results;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetRateLimits();
});

describe("rateLimitsFromEnv", () => {
  it("has a default for every class", () => {
    expect(rateLimitsFromEnv({})).toEqual({ read: 600, write: 120, model: 30, auth: 10 });
    expect(rateLimitsFromEnv({ TOOLSHED_RATE_LIMIT_MODEL: "  " })).toMatchObject({ model: 30 });
  });

  it("reads whole numbers, 0 included", () => {
    expect(
      rateLimitsFromEnv({
        TOOLSHED_RATE_LIMIT_READ: "1000",
        TOOLSHED_RATE_LIMIT_WRITE: " 5 ",
        TOOLSHED_RATE_LIMIT_MODEL: "0",
        TOOLSHED_RATE_LIMIT_AUTH: "3",
      }),
    ).toEqual({ read: 1000, write: 5, model: 0, auth: 3 });
  });

  it.each(["-1", "2.5", "1e3", "0x10", "ten", "99999999999999999999"])("refuses %j, naming the variable", (value) => {
    expect(() => rateLimitsFromEnv({ TOOLSHED_RATE_LIMIT_WRITE: value })).toThrow(
      `TOOLSHED_RATE_LIMIT_WRITE="${value}" must be a whole number of requests per 60 seconds (0 = unlimited).`,
    );
  });
});

describe("createRateLimits", () => {
  it("refuses the request past the limit and says when to retry", async () => {
    const limits = createRateLimits({ TOOLSHED_RATE_LIMIT_MODEL: "3" });
    const results = await consumeTimes(limits, "model", "user:1", 5);
    expect(results.slice(0, 3)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    for (const refused of results.slice(3)) {
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
      }
    }
  });

  it("keeps callers apart", async () => {
    const limits = createRateLimits({ TOOLSHED_RATE_LIMIT_WRITE: "2" });
    await consumeTimes(limits, "write", "user:1", 3);
    expect(await limits.consume("write", "user:1")).toMatchObject({ ok: false });
    expect(await consumeTimes(limits, "write", "token:1", 2)).toEqual([{ ok: true }, { ok: true }]);
    expect(await limits.consume("write", "user:2")).toEqual({ ok: true });
  });

  it("keeps classes apart: refused requests cost nothing in another class", async () => {
    const limits = createRateLimits({ TOOLSHED_RATE_LIMIT_MODEL: "1", TOOLSHED_RATE_LIMIT_READ: "2", TOOLSHED_RATE_LIMIT_WRITE: "1" });
    const model = await consumeTimes(limits, "model", "user:1", 10);
    expect(model.filter((result) => result.ok)).toHaveLength(1);
    expect(await consumeTimes(limits, "read", "user:1", 3)).toEqual([{ ok: true }, { ok: true }, expect.objectContaining({ ok: false })]);
    expect(await limits.consume("write", "user:1")).toEqual({ ok: true });
    expect(await limits.consume("auth", "user:1")).toEqual({ ok: true });
  });

  it("treats 0 as unlimited", async () => {
    const limits = createRateLimits({ TOOLSHED_RATE_LIMIT_AUTH: "0", TOOLSHED_RATE_LIMIT_READ: "1" });
    const results = await consumeTimes(limits, "auth", "ip:127.0.0.1", 1_000);
    expect(results.every((result) => result.ok)).toBe(true);
    await limits.consume("read", "user:1");
    expect(await limits.consume("read", "user:1")).toMatchObject({ ok: false });
  });

  it("lets a caller in again when the window has passed", async () => {
    vi.useFakeTimers();
    const limits = createRateLimits({ TOOLSHED_RATE_LIMIT_AUTH: "1" });
    expect(await limits.consume("auth", "ip:1")).toEqual({ ok: true });
    vi.advanceTimersByTime(20_000);
    expect(await limits.consume("auth", "ip:1")).toEqual({ ok: false, retryAfterSeconds: 40 });
    vi.advanceTimersByTime(40_000);
    expect(await limits.consume("auth", "ip:1")).toEqual({ ok: true });
  });
});

describe("consumeRateLimit", () => {
  it("reads the environment at first use and again after a reset", async () => {
    vi.stubEnv("TOOLSHED_RATE_LIMIT_READ", "1");
    expect(await consumeRateLimit("read", "user:1")).toEqual({ ok: true });
    expect(await consumeRateLimit("read", "user:1")).toMatchObject({ ok: false });
    resetRateLimits();
    expect(await consumeRateLimit("read", "user:1")).toEqual({ ok: true });
    vi.stubEnv("TOOLSHED_RATE_LIMIT_READ", "0");
    resetRateLimits();
    for (let index = 0; index < 5; index++) expect(await consumeRateLimit("read", "user:1")).toEqual({ ok: true });
  });

  it("rejects every call while a variable is invalid", async () => {
    vi.stubEnv("TOOLSHED_RATE_LIMIT_AUTH", "lots");
    for (const kind of RATE_LIMIT_CLASSES) {
      await expect(consumeRateLimit(kind, "user:1")).rejects.toThrow('TOOLSHED_RATE_LIMIT_AUTH="lots"');
    }
    vi.stubEnv("TOOLSHED_RATE_LIMIT_AUTH", "10");
    expect(await consumeRateLimit("auth", "user:1")).toEqual({ ok: true });
  });
});
