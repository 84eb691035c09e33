import { describe, expect, it } from "vitest";
import { createLocalSelector } from "../../lib/selection/local-selector";
import { exactNames, runToolSearch, TOOL_SEARCH_DEFAULT_RESULTS } from "../../lib/selection/tool-search";
import { TOOL_SEARCH_DEFINITION, TOOL_SEARCH_NAME, toolSearchInput } from "../../lib/selection/tool-search-definition";
import type { Selector } from "../../lib/selection/selector";
import type { RegistryView } from "../../lib/selection/verify";
import { demoCatalogState, scriptedSelectorDouble, throwingSelectorDouble, unverifiedSelectorDouble, viewFor } from "../support/catalog-state";

const CLAUDE = "claude-sonnet-4-5";
const buildView = () => viewFor(demoCatalogState(), { model: CLAUDE, agent: "build" });
const planView = () => viewFor(demoCatalogState(), { model: CLAUDE, agent: "plan" });
const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);

function search(view: RegistryView, query: string, selector: Selector = throwingSelectorDouble(), maxResults?: number) {
  return runToolSearch({ query, maxResults, view, selector, messages: [], indexKey: "demo@1:test" });
}

describe("exactNames", () => {
  it("reads select: lists, trimming names, dropping empties and repeats, case-insensitive prefix", () => {
    const view = buildView();
    expect(exactNames("select:github_create_issue,slack_post_message", view)).toEqual(["github_create_issue", "slack_post_message"]);
    expect(exactNames("  SELECT: read , ,grep,read ", view)).toEqual(["read", "grep"]);
    // A select: list is taken at its word, even for names the catalog does not know: verification judges them.
    expect(exactNames("select:nope", view)).toEqual(["nope"]);
  });

  it("treats a query equal to one catalog tool name as exact, and anything else as a description", () => {
    const view = buildView();
    expect(exactNames(" slack_post_message ", view)).toEqual(["slack_post_message"]);
    expect(exactNames("post to slack", view)).toBeUndefined();
    expect(exactNames("slack_post_messages", view)).toBeUndefined();
  });
});

describe("runToolSearch, exact path", () => {
  it("resolves select:a,b locally, with full definitions and no selector call", async () => {
    const selector = throwingSelectorDouble();
    const result = await search(buildView(), "select:github_create_issue,slack_post_message", selector);
    expect(selector.calls).toBe(0);
    expect(result.path).toBe("exact");
    expect(result.selection).toBeUndefined();
    expect(result.requested).toEqual(["github_create_issue", "slack_post_message"]);
    expect(names(result.tools)).toEqual(["github_create_issue", "slack_post_message"]);
    expect(result.tools[0].inputSchema.required).toEqual(expect.arrayContaining(["owner", "repo", "title"]));
    expect(result.rejected).toEqual([]);
  });

  it("resolves a single full tool name locally with no selector call", async () => {
    const selector = throwingSelectorDouble();
    const result = await search(buildView(), "weather_get_forecast", selector);
    expect(selector.calls).toBe(0);
    expect(result.path).toBe("exact");
    expect(names(result.tools)).toEqual(["weather_get_forecast"]);
  });

  it("rejects a forbidden name asked for by select:, with the permission that forbids it", async () => {
    const result = await search(planView(), "select:bash,read,github_make_coffee");
    expect(result.path).toBe("exact");
    expect(names(result.tools)).toEqual(["read"]);
    expect(result.rejected).toEqual([
      { name: "bash", reason: expect.stringMatching(/^removed at permissions: agent "plan" denies bash/) },
      { name: "github_make_coffee", reason: expect.stringMatching(/^not registered: not in the catalog/) },
    ]);
  });

  it("rejects a forbidden tool named on its own, without falling back to a semantic search", async () => {
    const selector = throwingSelectorDouble();
    const result = await search(planView(), "edit", selector);
    expect(selector.calls).toBe(0);
    expect(result.path).toBe("exact");
    expect(result.tools).toEqual([]);
    expect(result.rejected).toEqual([{ name: "edit", reason: expect.stringMatching(/^removed at permissions/) }]);
  });

  it("returns every name asked for explicitly, even beyond max_results", async () => {
    const result = await search(buildView(), "select:read,grep,glob", throwingSelectorDouble(), 2);
    expect(names(result.tools)).toEqual(["read", "grep", "glob"]);
  });

  it("measures latency with the clock it is given", async () => {
    let tick = 0;
    const result = await runToolSearch({
      query: "select:read",
      view: buildView(),
      selector: throwingSelectorDouble(),
      messages: [],
      indexKey: "k",
      now: () => (tick += 7),
    });
    expect(result.latencyMs).toBe(7);
  });
});

describe("runToolSearch, semantic path", () => {
  it("asks the selector, then lets through only what the registry check passes", async () => {
    // The double answers a visible tool, one the plan agent may not use, and one nobody defined.
    const selector = scriptedSelectorDouble(["github_create_issue", "bash", "github_make_coffee"]);
    const result = await search(planView(), "file a bug report on the repo", selector);

    expect(selector.inputs).toHaveLength(1);
    expect(result.path).toBe("semantic");
    expect(result.selection?.selector).toBe("scripted-double");
    expect(result.selection?.raw).toEqual(["github_create_issue", "bash", "github_make_coffee"]);
    expect(result.requested).toEqual(["github_create_issue", "bash", "github_make_coffee"]);
    expect(names(result.tools)).toEqual(["github_create_issue"]);
    expect(result.rejected).toEqual([
      { name: "bash", reason: expect.stringMatching(/^removed at permissions: agent "plan" denies bash/) },
      { name: "github_make_coffee", reason: expect.stringMatching(/^not registered: not in the catalog/) },
    ]);
  });

  it("verifies even names a selector wrongly ranks as candidates", async () => {
    const selector = unverifiedSelectorDouble(["bash", "slack_post_message", "ghost_tool"]);
    const result = await search(planView(), "chat with the team", selector);
    expect(names(result.tools)).toEqual(["slack_post_message"]);
    expect(result.rejected.map((rejection) => rejection.name)).toEqual(["bash", "ghost_tool"]);
  });

  it("gives the selector the visible tools as names and text only, and the query as the latest user message", async () => {
    const view = planView();
    const selector = scriptedSelectorDouble([]);
    await runToolSearch({
      query: "send an email",
      view,
      selector,
      messages: [{ role: "user", content: "Earlier message" }],
      indexKey: "demo@3:claude:plan",
    });
    const [input] = selector.inputs;
    expect(input.candidates.map((candidate) => candidate.name)).toEqual([...view.visible.keys()]);
    expect(input.candidates.map((candidate) => candidate.name)).not.toContain("bash");
    for (const candidate of input.candidates) expect(candidate).not.toHaveProperty("inputSchema");
    expect(input.candidates.find((candidate) => candidate.name === "email_send")?.parameterNames).toEqual(
      Object.keys(view.visible.get("email_send")!.inputSchema.properties!),
    );
    expect(input.messages).toEqual([
      { role: "user", content: "Earlier message" },
      { role: "user", content: "send an email" },
    ]);
    expect(input.indexKey).toBe("demo@3:claude:plan");
  });

  it("asks for max_results tools and returns at most that many; the default is 5", async () => {
    const view = buildView();
    const many = [...view.visible.keys()].filter((name) => name.includes("_")).slice(0, 12);
    const selector = unverifiedSelectorDouble(many);

    const three = await search(view, "anything at all", selector, 3);
    expect(selector.inputs[0].k).toBe(3);
    expect(names(three.tools)).toEqual(many.slice(0, 3));

    const byDefault = await search(view, "anything at all", selector);
    expect(selector.inputs[1].k).toBe(TOOL_SEARCH_DEFAULT_RESULTS);
    expect(byDefault.tools).toHaveLength(5);
  });

  it("with the real local selector, finds slack_post_message for a plain description", async () => {
    const result = await search(buildView(), "post a message to a Slack channel", createLocalSelector(), 5);
    expect(result.path).toBe("semantic");
    expect(result.selection?.selector).toBe("local");
    expect(result.tools.length).toBeGreaterThan(0);
    expect(result.tools.length).toBeLessThanOrEqual(5);
    expect(result.tools[0].name).toBe("slack_post_message");
    expect(result.rejected).toEqual([]);
  });

  it("with the real local selector, never returns a tool hidden from the agent", async () => {
    const result = await search(planView(), "run a shell command in the terminal", createLocalSelector(), 10);
    expect(names(result.tools)).not.toContain("bash");
  });
});

describe("the ToolSearch definition", () => {
  it("is named ToolSearch and takes a query and an optional max_results", () => {
    expect(TOOL_SEARCH_DEFINITION.name).toBe(TOOL_SEARCH_NAME);
    expect(TOOL_SEARCH_DEFINITION.inputSchema.required).toEqual(["query"]);
    expect(Object.keys(TOOL_SEARCH_DEFINITION.inputSchema.properties!)).toEqual(["query", "max_results"]);
    expect(toolSearchInput.safeParse({ query: "select:read", max_results: 3 }).success).toBe(true);
    expect(toolSearchInput.safeParse({ query: "  " }).success).toBe(false);
    expect(toolSearchInput.safeParse({ query: "x", max_results: 0 }).success).toBe(false);
    expect(toolSearchInput.safeParse({ query: "x", extra: 1 }).success).toBe(false);
  });
});
