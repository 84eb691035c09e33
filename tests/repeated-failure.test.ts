import { describe, expect, it } from "vitest";
import { RepeatedFailureLog } from "@/lib/repeated-failure";

describe("RepeatedFailureLog", () => {
  it("logs the first failure, then at most one reminder per interval with the count, then the recovery", () => {
    const log = new RepeatedFailureLog("Watching the sessions", 60_000);
    const unreachable = new Error("connect ECONNREFUSED 127.0.0.1:5432");
    expect(log.succeeded()).toBeNull();
    expect(log.failed(unreachable, 0)).toBe("Watching the sessions failed: connect ECONNREFUSED 127.0.0.1:5432");
    for (let at = 500; at < 60_000; at += 500) expect(log.failed(unreachable, at)).toBeNull();
    expect(log.failed(unreachable, 60_000)).toBe("Watching the sessions still failing (121 times so far): connect ECONNREFUSED 127.0.0.1:5432");
    expect(log.failed(unreachable, 60_500)).toBeNull();
    expect(log.succeeded()).toBe("Watching the sessions works again after 122 failures");
    expect(log.succeeded()).toBeNull();
    expect(log.failed("timeout", 61_000)).toBe("Watching the sessions failed: timeout");
  });
});
