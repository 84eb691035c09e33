import { describe, expect, it } from "vitest";
import { ToolshedError } from "../../lib/errors";
import { DEFAULT_AGENTS } from "../../lib/rules/agents";
import { createLocalSelector } from "../../lib/selection/local-selector";
import { DEFAULT_PRESELECT_K, indexKeyFor, preselect } from "../../lib/selection/preselect";
import { TOOL_SEARCH_NAME } from "../../lib/selection/tool-search-definition";
import type { ConversationMessage } from "../../lib/selection/types";
import { demoCatalogState, scriptedSelectorDouble, throwingSelectorDouble, unverifiedSelectorDouble } from "../support/catalog-state";

const CLAUDE = "claude-sonnet-4-5";
const baseOf = (agent: string) => DEFAULT_AGENTS.find((candidate) => candidate.name === agent)!.baseTools;
const ask = (content: string): ConversationMessage[] => [{ role: "user", content }];

describe("indexKeyFor", () => {
  it("names the catalog, its revision, the model and the agent", () => {
    expect(indexKeyFor("demo", 7, { model: "gpt-5", agent: "plan" })).toBe("demo@7:gpt-5:plan");
    expect(indexKeyFor("demo", 8, { model: "gpt-5", agent: "plan" })).not.toBe(indexKeyFor("demo", 7, { model: "gpt-5", agent: "plan" }));
  });
});

describe("preselect", () => {
  it("needs a user message with text, and calls no selector without one", async () => {
    const selector = throwingSelectorDouble();
    const run = (messages: ConversationMessage[]) =>
      preselect({ state: demoCatalogState(), revision: 1, request: { model: CLAUDE, agent: "build" }, messages, history: [], selector });

    for (const messages of [[], [{ role: "assistant", content: "How can I help?" }], ask("   \n ")] as ConversationMessage[][]) {
      const error = await run(messages).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolshedError);
      expect((error as ToolshedError).code).toBe("bad_request");
      expect((error as ToolshedError).field).toBe("messages");
    }
    expect(selector.calls).toBe(0);
  });

  it("selects at most k tools, ranked best first, with the real local selector", async () => {
    const result = await preselect({
      state: demoCatalogState(),
      revision: 1,
      request: { model: CLAUDE, agent: "build" },
      messages: ask("Open a GitHub issue about the login bug and post the link to the #deploys Slack channel."),
      history: [],
      k: 3,
      selector: createLocalSelector(),
    });
    expect(result.selection.selector).toBe("local");
    expect(result.selected.length).toBeGreaterThan(0);
    expect(result.selected.length).toBeLessThanOrEqual(3);
    const scores = result.selected.map((tool) => tool.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(result.selected.map((tool) => tool.name)).toContain("github_create_issue");
    // The local selector only ranks candidates, so nothing it returns is rejected; what is rejected
    // here are the build agent's base tools this model does not get.
    expect(result.selection.invented).toEqual([]);
    for (const rejection of result.rejected) expect(rejection.reason).toMatch(/^base tool dropped: /);
  });

  it("reports the agent's base tools the pipeline hides for this model as dropped, not as selector rejections", async () => {
    const result = await preselect({
      state: demoCatalogState(),
      revision: 1,
      request: { model: "gpt-5", agent: "build" },
      messages: ask("fix the failing test"),
      history: [],
      selector: scriptedSelectorDouble([]),
    });
    const base = result.toolSet.filter((entry) => entry.origin === "base").map((entry) => entry.name);
    expect(base).toContain("apply_patch");
    expect(base).not.toContain("edit");
    expect(result.rejected).toEqual([]);
    expect(result.dropped.map((rejection) => rejection.name).sort()).toEqual(["edit", "skill", "write"]);
    expect(result.dropped.find((rejection) => rejection.name === "edit")?.reason).toMatch(/^base tool dropped: removed at model-rules/);
  });

  it("uses k = 8 by default and passes k and a preselect index key to the selector", async () => {
    const selector = scriptedSelectorDouble([]);
    await preselect({
      state: demoCatalogState({ catalogId: "acme" }),
      revision: 4,
      request: { model: CLAUDE, agent: "plan" },
      messages: ask("hello"),
      history: [],
      selector,
    });
    expect(DEFAULT_PRESELECT_K).toBe(8);
    expect(selector.inputs[0].k).toBe(8);
    expect(selector.inputs[0].indexKey).toBe(`${indexKeyFor("acme", 4, { model: CLAUDE, agent: "plan" })}:preselect`);
  });

  it("offers the selector only visible tools that are not base tools, as names and text without schemas", async () => {
    const selector = scriptedSelectorDouble([]);
    const messages = ask("Find free time on my calendar next week");
    const result = await preselect({
      state: demoCatalogState(),
      revision: 1,
      request: { model: CLAUDE, agent: "plan" },
      messages,
      history: [],
      selector,
    });
    const [input] = selector.inputs;
    const offered = input.candidates.map((candidate) => candidate.name);
    expect(offered).toEqual(result.candidates);
    for (const base of baseOf("plan")) expect(offered).not.toContain(base);
    // Hidden from the plan agent, and not a base tool either: still no candidate.
    expect(offered).not.toContain("bash");
    expect(offered).not.toContain("edit");
    expect(offered).toContain("webfetch");
    expect(offered).toContain("calendar_find_free_time");
    expect(offered).toHaveLength(result.view.visible.size - baseOf("plan").filter((name) => result.view.visible.has(name)).length);
    for (const candidate of input.candidates) {
      expect(Object.keys(candidate).sort()).toEqual(["description", "name", "parameterNames", "parameterText", "summary", "tags"]);
      expect(JSON.stringify(candidate)).not.toContain('"type":"object"');
    }
    expect(input.messages).toEqual(messages);
  });

  it("rejects names the selector invented or that failed verification, and records the raw output", async () => {
    const selector = scriptedSelectorDouble(["calendar_find_free_time", "calendar_book_room", "calendar_create_event"]);
    const result = await preselect({
      state: demoCatalogState(),
      revision: 1,
      request: { model: CLAUDE, agent: "explore" },
      messages: ask("Book a meeting room when everyone is free"),
      history: [],
      selector,
    });
    expect(result.selected.map((tool) => tool.name)).toEqual(["calendar_find_free_time", "calendar_create_event"]);
    expect(result.rejected).toEqual([{ name: "calendar_book_room", reason: expect.stringMatching(/^not registered: not in the catalog/) }]);
    expect(result.selection.invented).toEqual(["calendar_book_room"]);
    expect(result.selection.raw).toEqual(["calendar_find_free_time", "calendar_book_room", "calendar_create_event"]);
    expect(result.toolSet.map((entry) => entry.name)).not.toContain("calendar_book_room");
  });

  it("never selects a hidden tool, even when a misbehaving selector ranks it", async () => {
    const selector = unverifiedSelectorDouble(["bash", "email_send"]);
    const result = await preselect({
      state: demoCatalogState(),
      revision: 1,
      request: { model: CLAUDE, agent: "explore" },
      messages: ask("run the tests and email me the result"),
      history: [],
      selector,
    });
    expect(result.selected.map((tool) => tool.name)).toEqual(["email_send"]);
    expect(result.rejected).toEqual([{ name: "bash", reason: expect.stringMatching(/^removed at permissions: agent "explore" denies bash/) }]);
    expect(result.toolSet.map((entry) => entry.name)).not.toContain("bash");
  });

  it("assembles the turn's tool set: base, preselected, history, then ToolSearch", async () => {
    const result = await preselect({
      state: demoCatalogState(),
      revision: 1,
      request: { model: CLAUDE, agent: "explore" },
      messages: ask("What is the weather in Lyon?"),
      history: ["github_get_issue", "weather_get_current"],
      selector: scriptedSelectorDouble(["weather_get_current", "weather_get_forecast"]),
    });
    expect(result.toolSet).toEqual([
      { name: "read", origin: "base" },
      { name: "grep", origin: "base" },
      { name: "glob", origin: "base" },
      { name: "weather_get_current", origin: "preselected" },
      { name: "weather_get_forecast", origin: "preselected" },
      { name: "github_get_issue", origin: "history" },
      { name: TOOL_SEARCH_NAME, origin: "entry" },
    ]);
  });

  it("drops history tools that are no longer visible, with the reason", async () => {
    const result = await preselect({
      state: demoCatalogState({ patch: { github_get_issue: { enabled: false } } }),
      revision: 2,
      request: { model: CLAUDE, agent: "explore" },
      messages: ask("continue"),
      history: ["github_get_issue", "slack_post_message"],
      selector: scriptedSelectorDouble([]),
    });
    expect(result.toolSet.filter((entry) => entry.origin === "history")).toEqual([{ name: "slack_post_message", origin: "history" }]);
    expect(result.dropped).toEqual([{ name: "github_get_issue", reason: "history tool dropped: not registered: disabled in the catalog" }]);
    expect(result.rejected).toEqual([]);
  });

  it("hands the model far fewer tokens than the whole visible list", async () => {
    const result = await preselect({
      state: demoCatalogState(),
      revision: 1,
      request: { model: CLAUDE, agent: "build" },
      messages: ask("post a message to a Slack channel"),
      history: [],
      k: 5,
      selector: createLocalSelector(),
    });
    expect(result.tokens.toolSet).toBeGreaterThan(0);
    expect(result.tokens.toolSet).toBeLessThan(result.tokens.visible);
    expect(result.tokens.candidates).toBeGreaterThan(0);
    expect(result.tokens.candidates).toBeLessThan(result.tokens.visible);
  });

  it("measures the selector's latency with the clock it is given", async () => {
    let tick = 0;
    const result = await preselect({
      state: demoCatalogState(),
      revision: 1,
      request: { model: CLAUDE, agent: "build" },
      messages: ask("hi"),
      history: [],
      selector: scriptedSelectorDouble([]),
      now: () => (tick += 11),
    });
    expect(result.latencyMs).toBe(11);
  });
});
