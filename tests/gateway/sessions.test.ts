import { describe, expect, it } from "vitest";
import { GatewaySessions } from "@/lib/gateway/sessions";

function fakeSession() {
  const session = {
    closed: false,
    close: async () => {
      session.closed = true;
    },
  };
  return session;
}

describe("the MCP gateway's sessions", () => {
  it("are found only by the caller that opened them", () => {
    const sessions = new GatewaySessions({ idleMs: 1_000, perCaller: 4 });
    const session = fakeSession();
    sessions.add("s1", "token:a", session);
    expect(sessions.get("s1", "token:a")).toBe(session);
    expect(sessions.get("s1", "token:b")).toBeUndefined();
    expect(sessions.get("s2", "token:a")).toBeUndefined();
  });

  it("close once idle longer than the limit; a use keeps one open", () => {
    let now = 0;
    const sessions = new GatewaySessions({ idleMs: 1_000, perCaller: 4 }, () => now);
    const [used, idle] = [fakeSession(), fakeSession()];
    sessions.add("used", "token:a", used);
    sessions.add("idle", "token:a", idle);
    now = 800;
    sessions.get("used", "token:a");
    now = 1_500;
    expect(sessions.get("idle", "token:a")).toBeUndefined();
    expect(idle.closed).toBe(true);
    expect(sessions.get("used", "token:a")).toBe(used);
    expect(used.closed).toBe(false);
  });

  it("keep at most the cap per caller: one more closes that caller's least recently used", () => {
    let now = 0;
    const sessions = new GatewaySessions({ idleMs: 60_000, perCaller: 2 }, () => now);
    const [first, second, third, others] = [fakeSession(), fakeSession(), fakeSession(), fakeSession()];
    sessions.add("first", "token:a", first);
    sessions.add("others", "token:b", others);
    now = 1;
    sessions.add("second", "token:a", second);
    now = 2;
    sessions.get("first", "token:a");
    now = 3;
    sessions.add("third", "token:a", third);
    expect(second.closed).toBe(true);
    expect([first.closed, third.closed, others.closed]).toEqual([false, false, false]);
    expect(sessions.size).toBe(3);
  });
});
