import { describe, expect, it } from "vitest";
import { DEMO_TOOLS } from "../../lib/demo";
import { ToolshedError } from "../../lib/errors";
import type { CatalogState } from "../../lib/pipeline/tool-list";
import { DEFAULT_AGENTS } from "../../lib/rules/agents";
import { DEFAULT_RULES } from "../../lib/rules/catalog-rules";
import { diffOutcomes, recordedOutcome, replayDecision, type DecisionOutcome, type RecordedDecision } from "../../lib/selection/replay";
import { preselect } from "../../lib/selection/preselect";
import type { SelectionInput, SelectionOutput, Selector } from "../../lib/selection/selector";
import { BUILTIN_TOOLS } from "../../lib/tools/builtin";
import type { Tool } from "../../lib/tools/types";

const CLAUDE = "claude-sonnet-4-5";

/** The demo catalog at a revision, with some tools changed by name. */
function demoState(revision: number, patch: Record<string, Partial<Tool>> = {}, drop: string[] = []): CatalogState & { revision: number } {
  const tools: Tool[] = [
    ...BUILTIN_TOOLS.map(
      (tool): Tool => ({ ...tool, tags: [...tool.tags], requires: { ...tool.requires }, source: "builtin", enabled: true, registered: true }),
    ),
    ...DEMO_TOOLS.map((tool): Tool => ({ ...tool, tags: [...tool.tags], source: "custom", enabled: true, registered: true, requires: {} })),
  ];
  for (const name of [...drop, ...Object.keys(patch)]) if (!tools.some((tool) => tool.name === name)) throw new Error(`fixture: no tool ${name}`);
  return {
    catalogId: "demo",
    revision,
    tools: tools.filter((tool) => !drop.includes(tool.name)).map((tool) => ({ ...tool, ...patch[tool.name] })),
    rules: DEFAULT_RULES,
    agents: DEFAULT_AGENTS,
  };
}

/** Test double: answers with fixed names and scores (only those among its candidates), recording every input. */
function scriptedSelector(answer: [string, number][], id = "scripted"): Selector & { inputs: SelectionInput[] } {
  const inputs: SelectionInput[] = [];
  return {
    id,
    inputs,
    async select(input: SelectionInput): Promise<SelectionOutput> {
      inputs.push(input);
      const candidates = new Set(input.candidates.map((candidate) => candidate.name));
      return {
        ranked: answer
          .filter(([name]) => candidates.has(name))
          .map(([name, score]) => ({ name, score }))
          .slice(0, input.k),
        selector: id,
        raw: answer,
        invented: answer.map(([name]) => name).filter((name) => !candidates.has(name)),
      };
    },
  };
}

function refusingSelector(): Selector & { calls: number } {
  const double = {
    id: "refusing",
    calls: 0,
    async select(): Promise<SelectionOutput> {
      double.calls++;
      throw new Error("the exact path must not call a selector");
    },
  };
  return double;
}

function outcome(names: string[], extra: Partial<DecisionOutcome> = {}): DecisionOutcome {
  return {
    revision: 1,
    path: "exact",
    selector: null,
    fallback: null,
    names,
    scores: null,
    toolSet: null,
    dropped: null,
    requested: names,
    rejected: [],
    raw: names,
    call: null,
    ...extra,
  };
}

const RECORDED_ANSWER: [string, number][] = [
  ["jira_create_issue", 0.9],
  ["jira_search_issues", 0.7],
  ["jira_add_comment", 0.5],
];

/** A preselection recorded as the service records one: run at `state`, k 3, with a tool in the history. */
async function recordPreselection(state = demoState(3), answer = RECORDED_ANSWER, overrides: Partial<RecordedDecision> = {}): Promise<RecordedDecision> {
  const input = {
    messages: [{ role: "user" as const, content: "Open a Jira ticket for the login bug" }],
    k: 3,
    history: ["weather_get_forecast"],
    provider: null,
  };
  const result = await preselect({
    state,
    revision: state.revision,
    request: { model: CLAUDE, agent: "build" },
    messages: input.messages,
    history: input.history,
    k: input.k,
    selector: scriptedSelector(answer),
  });
  return {
    id: "d-pre",
    catalogId: "demo",
    revision: state.revision,
    kind: "preselect",
    path: "preselect",
    model: CLAUDE,
    agent: "build",
    mode: null,
    flags: [],
    input,
    selector: result.selection.selector,
    fallback: null,
    raw: result.selection.raw,
    result: { selected: result.selected, toolSet: result.toolSet, dropped: result.dropped, candidates: result.candidates },
    rejected: result.rejected,
    ...overrides,
  };
}

function toolSearchDecision(query: string, tools: string[], overrides: Partial<RecordedDecision> = {}): RecordedDecision {
  return {
    id: "d-search",
    catalogId: "demo",
    revision: 5,
    kind: "tool-search",
    path: "exact",
    model: CLAUDE,
    agent: "build",
    mode: null,
    flags: [],
    input: { query, maxResults: null, messages: [], provider: null },
    selector: null,
    fallback: null,
    raw: tools,
    result: { requested: tools, tools },
    rejected: [],
    ...overrides,
  };
}

describe("diffOutcomes", () => {
  it("lists names found now but not before as added, and the reverse as removed, in result order", () => {
    const diff = diffOutcomes(outcome(["a", "b", "c"]), outcome(["c", "d", "a", "e"]));
    expect(diff.added).toEqual(["d", "e"]);
    expect(diff.removed).toEqual(["b"]);
    expect(diff.rejected).toEqual([]);
    expect(diff.scoreChanges).toEqual([]);
  });

  it("reports only rejections that are new or whose reason changed, naming the earlier reason", () => {
    const before = outcome(["a"], {
      rejected: [
        { name: "x", reason: "not in the catalog" },
        { name: "y", reason: "disabled in the catalog" },
      ],
    });
    const after = outcome(["a"], {
      rejected: [
        { name: "x", reason: "not in the catalog" },
        { name: "y", reason: "removed at permissions: denied" },
        { name: "z", reason: "disabled in the catalog" },
      ],
    });
    expect(diffOutcomes(before, after).rejected).toEqual([
      { name: "y", reason: "removed at permissions: denied", previousReason: "disabled in the catalog" },
      { name: "z", reason: "disabled in the catalog" },
    ]);
  });

  it("explains a removed name the registry now turns away, even when no selector named it, but not one merely outranked", () => {
    const reasons: Record<string, string> = { b: "disabled in the catalog" };
    const diff = diffOutcomes(outcome(["a", "b", "c"]), outcome(["a"]), (name) => reasons[name]);
    expect(diff.removed).toEqual(["b", "c"]);
    expect(diff.rejected).toEqual([{ name: "b", reason: "disabled in the catalog" }]);
  });

  it("does not list a name twice when the selector's rejection and the registry agree", () => {
    const after = outcome([], { rejected: [{ name: "b", reason: "disabled in the catalog" }] });
    const diff = diffOutcomes(outcome(["b"]), after, () => "disabled in the catalog");
    expect(diff.rejected).toEqual([{ name: "b", reason: "disabled in the catalog" }]);
  });

  it("compares scores of names selected both times, ignoring unchanged ones and names on one side only", () => {
    const before = outcome(["a", "b", "c"], {
      path: "preselect",
      scores: [
        { name: "a", score: 0.9 },
        { name: "b", score: 0.5 },
        { name: "c", score: 0.4 },
      ],
    });
    const after = outcome(["b", "a", "d"], {
      path: "preselect",
      scores: [
        { name: "b", score: 0.8 },
        { name: "a", score: 0.9 },
        { name: "d", score: 0.3 },
      ],
    });
    expect(diffOutcomes(before, after).scoreChanges).toEqual([{ name: "b", before: 0.5, after: 0.8 }]);
  });
});

describe("recordedOutcome", () => {
  it("reads the selected tools with scores of a preselection and the found tools of a ToolSearch call", async () => {
    const pre = recordedOutcome(await recordPreselection());
    expect(pre.names).toEqual(["jira_create_issue", "jira_search_issues", "jira_add_comment"]);
    expect(pre.scores?.[1]).toEqual({ name: "jira_search_issues", score: 0.7 });
    const search = recordedOutcome(toolSearchDecision("select:jira_add_comment,nope", ["jira_add_comment"]));
    expect(search).toMatchObject({ names: ["jira_add_comment"], scores: null, revision: 5, path: "exact" });
  });

  it("refuses a decision whose recorded result is not in the expected shape", async () => {
    const decision = await recordPreselection(demoState(3), RECORDED_ANSWER, { result: { selected: "jira" } });
    expect(() => recordedOutcome(decision)).toThrow(ToolshedError);
  });
});

describe("replayDecision", () => {
  it("replays an exact ToolSearch against today's catalog: a tool disabled since is removed and newly rejected, with no selector call", async () => {
    const selector = refusingSelector();
    const decision = toolSearchDecision("select:stripe_create_refund,jira_add_comment", ["stripe_create_refund", "jira_add_comment"]);
    const { before, after, diff } = await replayDecision({ decision, state: demoState(6, { stripe_create_refund: { enabled: false } }), selector });
    expect(selector.calls).toBe(0);
    expect(before).toMatchObject({ revision: 5, names: ["stripe_create_refund", "jira_add_comment"] });
    expect(after).toMatchObject({ revision: 6, path: "exact", names: ["jira_add_comment"], requested: ["stripe_create_refund", "jira_add_comment"] });
    expect(diff).toEqual({
      added: [],
      removed: ["stripe_create_refund"],
      rejected: [{ name: "stripe_create_refund", reason: "not registered: disabled in the catalog" }],
      scoreChanges: [],
      call: null,
    });
  });

  it("reports no difference when nothing relevant changed", async () => {
    const decision = toolSearchDecision("select:jira_add_comment", ["jira_add_comment"]);
    const { diff } = await replayDecision({ decision, state: demoState(9, { stripe_create_refund: { enabled: false } }), selector: refusingSelector() });
    expect(diff).toEqual({ added: [], removed: [], rejected: [], scoreChanges: [], call: null });
  });

  it("replays a preselection with the recorded messages, k and history, and explains a deleted tool the selector could no longer see", async () => {
    const selector = scriptedSelector([
      ["jira_create_issue", 0.95],
      ["jira_search_issues", 0.7],
      ["jira_transition_issue", 0.6],
      ["jira_add_comment", 0.55],
    ]);
    const decision = await recordPreselection();
    const { after, diff } = await replayDecision({ decision, state: demoState(4, {}, ["jira_search_issues"]), selector });

    expect(selector.inputs).toHaveLength(1);
    expect(selector.inputs[0].k).toBe(3);
    expect(selector.inputs[0].messages).toEqual([{ role: "user", content: "Open a Jira ticket for the login bug" }]);
    expect(selector.inputs[0].candidates.map((candidate) => candidate.name)).not.toContain("jira_search_issues");
    expect(after.names).toEqual(["jira_create_issue", "jira_transition_issue", "jira_add_comment"]);
    expect(after.toolSet).toContainEqual({ name: "weather_get_forecast", origin: "history" });
    expect(diff.added).toEqual(["jira_transition_issue"]);
    expect(diff.removed).toEqual(["jira_search_issues"]);
    expect(diff.rejected).toEqual([{ name: "jira_search_issues", reason: expect.stringContaining("not in the catalog") }]);
    expect(diff.scoreChanges).toEqual([
      { name: "jira_create_issue", before: 0.9, after: 0.95 },
      { name: "jira_add_comment", before: 0.5, after: 0.55 },
    ]);
    // The recorded input is left as it was: replay writes nothing back.
    expect((decision.input as { history: string[] }).history).toEqual(["weather_get_forecast"]);
  });

  it("reports a history tool dropped from the tool set since, with its origin and reason", async () => {
    const selector = scriptedSelector(RECORDED_ANSWER);
    const { before, after, diff } = await replayDecision({
      decision: await recordPreselection(),
      state: demoState(4, { weather_get_forecast: { enabled: false } }),
      selector,
    });
    expect(before.dropped?.map((entry) => entry.name)).not.toContain("weather_get_forecast");
    expect(after.toolSet).not.toContainEqual({ name: "weather_get_forecast", origin: "history" });
    expect(after.dropped).toContainEqual({ name: "weather_get_forecast", reason: "history tool dropped: not registered: disabled in the catalog" });
    // Base tools this model never gets were dropped then too: only the history tool is new.
    expect(diff).toEqual({
      added: [],
      removed: [],
      rejected: [{ name: "weather_get_forecast", reason: "history tool dropped: not registered: disabled in the catalog" }],
      scoreChanges: [],
      call: null,
    });
  });

  it("does not report again a tool that was already dropped for the same reason", async () => {
    const disabled = { weather_get_forecast: { enabled: false } };
    const decision = await recordPreselection(demoState(3, disabled));
    expect(recordedOutcome(decision).dropped).toContainEqual({ name: "weather_get_forecast", reason: expect.stringContaining("disabled in the catalog") });
    const { diff } = await replayDecision({ decision, state: demoState(7, disabled), selector: scriptedSelector(RECORDED_ANSWER) });
    expect(diff).toEqual({ added: [], removed: [], rejected: [], scoreChanges: [], call: null });
  });

  it("runs with another selector when asked, and reports which one answered", async () => {
    const other = scriptedSelector(
      [
        ["jira_create_issue", 0.9],
        ["slack_post_message", 0.8],
      ],
      "other-model",
    );
    const { after, diff } = await replayDecision({ decision: await recordPreselection(), state: demoState(3), selector: other });
    expect(after.selector).toBe("other-model");
    expect(diff.added).toEqual(["slack_post_message"]);
    expect(diff.removed).toEqual(["jira_search_issues", "jira_add_comment"]);
    expect(diff.rejected).toEqual([]);
  });

  it("replays a semantic ToolSearch through the selector, rejecting an invented name the recorded run did not", async () => {
    const selector = scriptedSelector([
      ["jira_add_comment", 0.9],
      ["jira_magic_fix", 0.8],
    ]);
    const decision = toolSearchDecision("comment on a ticket", ["jira_add_comment"], { path: "semantic", selector: "scripted" });
    const { after, diff } = await replayDecision({ decision, state: demoState(5), selector });
    expect(after.path).toBe("semantic");
    expect(selector.inputs[0].messages.at(-1)).toEqual({ role: "user", content: "comment on a ticket" });
    expect(diff.added).toEqual([]);
    expect(diff.rejected).toEqual([{ name: "jira_magic_fix", reason: expect.stringContaining("not in the catalog") }]);
  });

  it("refuses a decision of another catalog", async () => {
    const state = { ...demoState(1), catalogId: "other" };
    await expect(replayDecision({ decision: await recordPreselection(), state, selector: refusingSelector() })).rejects.toThrow(/belongs to catalog "demo"/);
  });
});
