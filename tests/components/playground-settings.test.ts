import { describe, expect, it } from "vitest";
import { settingsChange, settingsOf } from "@/components/playground-settings";

const agents = [
  { name: "explore", mode: "subagent" },
  { name: "plan", mode: "primary" },
];

describe("the playground's settings in its URL", () => {
  it("reads what the URL names, and without it the defaults: the first agent that is not a subagent, top 8", () => {
    expect(settingsOf(new URLSearchParams("model=gpt-5&agent=build&mode=fast&flags=a,,b&k=3"), agents)).toEqual({
      model: "gpt-5",
      agent: "build",
      mode: "fast",
      flags: ["a", "b"],
      k: 3,
    });
    expect(settingsOf(new URLSearchParams("mode="), agents)).toEqual({ model: "claude-sonnet-4-5", agent: "plan", mode: undefined, flags: [], k: 8 });
    expect(settingsOf(new URLSearchParams(), [{ name: "explore", mode: "subagent" }]).agent).toBe("explore");
    expect(settingsOf(new URLSearchParams(), []).agent).toBe("build");
  });

  it("changes only the parameters whose setting changed, and drops an emptied mode or flag list", () => {
    const current = settingsOf(new URLSearchParams("model=gpt-5&agent=plan&mode=fast&flags=a"), agents);
    expect(settingsChange(current, { ...current })).toEqual({});
    expect(settingsChange(current, { ...current, model: "o3", k: 3 })).toEqual({ model: "o3", k: "3" });
    expect(settingsChange(current, { ...current, agent: "build", mode: undefined, flags: [] })).toEqual({ agent: "build", mode: undefined, flags: undefined });
    expect(settingsChange(current, { ...current, flags: ["a", "b"] })).toEqual({ flags: "a,b" });
  });
});
