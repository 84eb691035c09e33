import { describe, expect, it } from "vitest";
import { DEFAULT_AGENTS } from "../../lib/rules/agents";
import { TOOL_SEARCH_NAME } from "../../lib/selection/tool-search-definition";
import { assembleTurnToolSet } from "../../lib/selection/turn";
import { demoCatalogState, viewFor } from "../support/catalog-state";

const CLAUDE = "claude-sonnet-4-5";
const baseOf = (agent: string) => DEFAULT_AGENTS.find((candidate) => candidate.name === agent)!.baseTools;

describe("assembleTurnToolSet", () => {
  it("lists base, preselected and history tools with their origins, and the ToolSearch entry last", () => {
    const view = viewFor(demoCatalogState(), { model: CLAUDE, agent: "explore" });
    const { entries, dropped } = assembleTurnToolSet({
      baseTools: baseOf("explore"),
      preselected: ["github_search_issues", "slack_post_message"],
      history: ["weather_get_forecast"],
      view,
    });
    expect(entries).toEqual([
      { name: "read", origin: "base" },
      { name: "grep", origin: "base" },
      { name: "glob", origin: "base" },
      { name: "github_search_issues", origin: "preselected" },
      { name: "slack_post_message", origin: "preselected" },
      { name: "weather_get_forecast", origin: "history" },
      { name: TOOL_SEARCH_NAME, origin: "entry" },
    ]);
    expect(dropped).toEqual([]);
  });

  it("gives each name once, under the first origin in the order base > preselected > history", () => {
    const view = viewFor(demoCatalogState(), { model: CLAUDE, agent: "build" });
    const { entries } = assembleTurnToolSet({
      baseTools: ["read", "grep"],
      preselected: ["grep", "slack_post_message", "slack_post_message"],
      history: ["read", "slack_post_message", "github_get_issue"],
      view,
    });
    expect(entries).toEqual([
      { name: "read", origin: "base" },
      { name: "grep", origin: "base" },
      { name: "slack_post_message", origin: "preselected" },
      { name: "github_get_issue", origin: "history" },
      { name: TOOL_SEARCH_NAME, origin: "entry" },
    ]);
  });

  it("still offers ToolSearch, and only it, when nothing else is there", () => {
    const view = viewFor(demoCatalogState(), { model: CLAUDE, agent: "build" });
    expect(assembleTurnToolSet({ baseTools: [], preselected: [], history: [], view }).entries).toEqual([{ name: TOOL_SEARCH_NAME, origin: "entry" }]);
  });

  it("drops history tools that became disabled or were deleted since, each with its reason", () => {
    const state = demoCatalogState({ patch: { slack_post_message: { enabled: false } }, drop: ["weather_get_forecast"] });
    const view = viewFor(state, { model: CLAUDE, agent: "build" });
    const { entries, dropped } = assembleTurnToolSet({
      baseTools: [],
      preselected: [],
      history: ["slack_post_message", "github_create_issue", "weather_get_forecast"],
      view,
    });
    expect(entries.map((entry) => entry.name)).toEqual(["github_create_issue", TOOL_SEARCH_NAME]);
    expect(dropped).toEqual([
      { name: "slack_post_message", reason: "history tool dropped: not registered: disabled in the catalog" },
      { name: "weather_get_forecast", reason: expect.stringMatching(/^history tool dropped: not registered: not in the catalog/) },
    ]);
  });

  it("drops base tools the model rules hide: edit and write for gpt-5 with the build agent", () => {
    const view = viewFor(demoCatalogState(), { model: "gpt-5", agent: "build" });
    const { entries, dropped } = assembleTurnToolSet({ baseTools: baseOf("build"), preselected: [], history: [], view });
    const names = entries.map((entry) => entry.name);
    expect(names).not.toContain("edit");
    expect(names).not.toContain("write");
    expect(names).toContain("apply_patch");
    expect(entries.filter((entry) => entry.origin === "base").map((entry) => entry.name)).toEqual(baseOf("build").filter((name) => view.visible.has(name)));
    expect(dropped.find((item) => item.name === "edit")?.reason).toMatch(
      /^base tool dropped: removed at model-rules: model rule "Patch-preferring GPT models"/,
    );
    expect(dropped.find((item) => item.name === "write")?.reason).toMatch(/^base tool dropped: removed at model-rules/);
  });

  it("drops preselected names that are not visible, so even a bad caller cannot add them", () => {
    const view = viewFor(demoCatalogState(), { model: CLAUDE, agent: "plan" });
    const { entries, dropped } = assembleTurnToolSet({ baseTools: [], preselected: ["bash", "made_up"], history: [], view });
    expect(entries).toEqual([{ name: TOOL_SEARCH_NAME, origin: "entry" }]);
    expect(dropped.map((item) => item.reason)).toEqual([
      expect.stringMatching(/^preselected tool dropped: removed at permissions/),
      expect.stringMatching(/^preselected tool dropped: not registered: not in the catalog/),
    ]);
  });
});
