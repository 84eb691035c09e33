import { describe, expect, it } from "vitest";
import { createLoader, createSerializer } from "nuqs/server";
import { type PaneState, paneValues, readPane, type SimulatorValues, simulatorParsers, typedChange, typedFlags } from "@/components/simulator-state";

// What the page's useQueryStates reads from and writes to the URL, with the same parsers.
const loadSimulatorState = createLoader(simulatorParsers);
const serializeSimulatorState = createSerializer(simulatorParsers);

const paneA: PaneState = { model: "gpt-5", agent: "build", mode: "plan", provider: "azure", flags: ["experimental.lsp", "beta"], why: "edit" };
const paneB: PaneState = { model: "claude-sonnet-4-5", agent: "plan", mode: "", provider: "", flags: [], why: "bash & co?" };

function stateOf(a: PaneState, b: PaneState | undefined, format: SimulatorValues["format"]): SimulatorValues {
  return { ...loadSimulatorState(""), format, ...paneValues("a", a), ...paneValues("b", b) } as SimulatorValues;
}

describe("the simulator's state in the URL", () => {
  it("round-trips both panes, mode, provider, flags, format and the why questions exactly", () => {
    const state = stateOf(paneA, paneB, "anthropic");
    const url = serializeSimulatorState(state);
    const restored = loadSimulatorState(url);
    expect(restored).toEqual(state);
    expect(readPane(restored, "a")).toEqual(paneA);
    expect(readPane(restored, "b")).toEqual(paneB);
    expect(restored.format).toBe("anthropic");
  });

  it("reads the links shared before (flags joined by commas, pane B's keys prefixed with b)", () => {
    const restored = loadSimulatorState("?model=gpt-5&agent=build&flags=a,b&bmodel=claude-sonnet-4-5&bagent=plan&format=openai");
    expect(readPane(restored, "a")).toEqual({ model: "gpt-5", agent: "build", mode: "", provider: "", flags: ["a", "b"], why: "" });
    expect(readPane(restored, "b")?.agent).toBe("plan");
    expect(restored.format).toBe("openai");
  });

  it("has no pane B without its model and agent, and an unknown format falls back to ai-sdk", () => {
    const restored = loadSimulatorState("?model=gpt-5&agent=build&bmodel=x&format=yaml");
    expect(readPane(restored, "b")).toBeUndefined();
    expect(restored.format).toBe("ai-sdk");
  });

  it("sets one pane's keys only, so the panes never overwrite each other", () => {
    expect(Object.keys(paneValues("b", paneB)).every((key) => key.startsWith("b"))).toBe(true);
    expect(Object.keys(paneValues("a", paneA)).some((key) => key.startsWith("b"))).toBe(false);
    expect(paneValues("b", undefined)).toEqual({ bmodel: null, bagent: null, bmode: null, bprovider: null, bflags: null, bwhy: null });
  });
});

describe("a pane's typed settings, applied", () => {
  const typed = { model: "gpt-5", mode: "plan", newFlags: [] };

  it("reads the flag field as comma-separated names", () => {
    expect(typedFlags(" beta, ,experimental.lsp ,")).toEqual(["beta", "experimental.lsp"]);
    expect(typedFlags("  ")).toEqual([]);
  });

  it("changes only what differs from the setting in use, and never empties the model", () => {
    expect(typedChange("model", typed, paneA)).toBeUndefined();
    expect(typedChange("model", { ...typed, model: "" }, paneA)).toBeUndefined();
    expect(typedChange("model", { ...typed, model: "gpt-5-mini" }, paneA)?.(paneB)).toEqual({ ...paneB, model: "gpt-5-mini" });
    expect(typedChange("mode", typed, paneA)).toBeUndefined();
    expect(typedChange("mode", { ...typed, mode: "" }, paneA)?.(paneA)).toEqual({ ...paneA, mode: "" });
  });

  it("adds typed flags to those on in the pane's state when it applies, once each", () => {
    expect(typedChange("newFlags", typed, paneA)).toBeUndefined();
    const change = typedChange("newFlags", { ...typed, newFlags: ["beta", "new"] }, paneB);
    expect(change?.(paneA).flags).toEqual(["experimental.lsp", "beta", "new"]);
  });
});
