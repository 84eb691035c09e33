import { describe, expect, it } from "vitest";
import { freezeCatalogState } from "../../lib/pipeline/tool-list";
import { catalogCorpus, toCandidates } from "../../lib/selection/candidates";
import { createLocalIndex, LocalIndexCache } from "../../lib/selection/local";
import { createLocalSelector } from "../../lib/selection/local-selector";
import { preselect } from "../../lib/selection/preselect";
import type { SelectionInput } from "../../lib/selection/selector";
import type { SelectorCandidate } from "../../lib/selection/types";
import { demoCatalogState } from "../support/catalog-state";

const catalog: SelectorCandidate[] = [
  { name: "weather_forecast", summary: "Get the weather forecast for a city", tags: ["weather"] },
  { name: "send_email", summary: "Send an email message to a recipient", parameterNames: ["to", "subject"] },
  { name: "create_issue", summary: "Create an issue in a GitHub repository" },
  { name: "rain_radar", summary: "Show the rain radar and weather map" },
  { name: "post_message", summary: "Post a message to a chat channel" },
];
const ask = (content: string) => [{ role: "user" as const, content }];
const corpus = (key: string, candidates = catalog) => ({ key, candidates: () => candidates });

describe("rankAmong: one index over the catalog, visibility applied per request", () => {
  const index = createLocalIndex(catalog);

  it("ranks exactly as rank() when every indexed tool is a candidate", () => {
    for (const query of ["weather tomorrow", "email the team", "open an issue", "post to the channel"]) {
      expect(
        index.rankAmong(
          catalog.map((candidate) => ({ ...candidate })),
          ask(query),
          3,
        ),
      ).toEqual(index.rank(ask(query), 3));
    }
  });

  it("never returns a tool that is not among the candidates", () => {
    const visible = catalog.filter((candidate) => candidate.name !== "weather_forecast");
    const ranked = index.rankAmong(visible, ask("weather forecast"), 5).map((tool) => tool.name);
    expect(ranked).toEqual(["rain_radar"]);
    expect(index.rankAmong([], ask("weather"), 5)).toEqual([]);
  });

  it("ranks a candidate by its own text when it differs from the indexed one, or is not indexed", () => {
    const rewritten = catalog.map((candidate) => (candidate.name === "create_issue" ? { ...candidate, summary: "Book a table at a restaurant" } : candidate));
    expect(index.rankAmong(rewritten, ask("book a restaurant table"), 1)[0]?.name).toBe("create_issue");
    expect(index.rankAmong(rewritten, ask("github repository"), 5).map((tool) => tool.name)).not.toContain("create_issue");
    const extra = [...catalog, { name: "translate_text", summary: "Translate text into another language" }];
    expect(index.rankAmong(extra, ask("translate this into French"), 1)[0]?.name).toBe("translate_text");
  });
});

describe("local selector with a corpus", () => {
  it("builds one index per corpus key, shared by every candidate set, and a new one for a new key", async () => {
    const cache = new LocalIndexCache();
    const selector = createLocalSelector(cache);
    const select = (candidates: SelectorCandidate[], key: string, content: string) =>
      selector.select({ candidates, messages: ask(content), k: 3, indexKey: `c@1:${candidates.length}`, corpus: corpus(key) } satisfies SelectionInput);
    const forOne = await select(catalog.slice(0, 3), "c@1", "weather");
    const forOther = await select(catalog.slice(2), "c@1", "weather");
    expect(cache.size).toBe(1);
    expect(forOne.ranked.map((tool) => tool.name)).toEqual(["weather_forecast"]);
    expect(forOther.ranked.map((tool) => tool.name)).toEqual(["rain_radar"]);
    await select(catalog, "c@2", "weather");
    expect(cache.size).toBe(2);
  });

  it("is bounded by entries and by the tools indexed", () => {
    expect(() => new LocalIndexCache(1, 0)).toThrow(RangeError);
    const cache = new LocalIndexCache(3, 10);
    for (let key = 0; key < 5; key++) cache.get(`k${key}`, () => catalog);
    expect(cache.size).toBe(2);
    expect(cache.documents).toBeLessThanOrEqual(10);
    cache.get("big", () => Array.from({ length: 20 }, (_, index) => ({ name: `t${index}`, summary: "x" })));
    expect(cache.has("big")).toBe(true);
    expect(cache.size).toBe(1);
  });
});

describe("catalogCorpus", () => {
  it("is keyed by catalog, revision and the tool array, and lists every tool of the catalog", () => {
    const state = demoCatalogState();
    const corpusOf = catalogCorpus("demo", 3, state.tools);
    expect(catalogCorpus("demo", 3, state.tools).key).toBe(corpusOf.key);
    expect(catalogCorpus("demo", 4, state.tools).key).not.toBe(corpusOf.key);
    expect(catalogCorpus("demo", 3, [...state.tools]).key).not.toBe(corpusOf.key);
    expect(corpusOf.candidates().map((candidate) => candidate.name)).toEqual(state.tools.map((tool) => tool.name));
  });

  it("lets preselection for different models and agents share one index per revision, and a write build another in its place", async () => {
    const cache = new LocalIndexCache();
    const selector = createLocalSelector(cache);
    const state = freezeCatalogState(demoCatalogState());
    const run = (revision: number, model: string, agent: string) =>
      preselect({ state, revision, request: { model, agent }, messages: ask("Open a GitHub issue about the login bug"), history: [], k: 3, selector });
    const results = [
      await run(1, "claude-sonnet-4-5", "build"),
      await run(1, "gpt-5", "plan"),
      await run(1, "gemini-2.5-pro", "build"),
      await run(1, "gpt-4.1", "plan"),
    ];
    expect(cache.size).toBe(1);
    for (const result of results) {
      expect(result.selected.map((tool) => tool.name)).toContain("github_create_issue");
      for (const tool of result.selected) expect(result.candidates).toContain(tool.name);
    }
    await run(2, "claude-sonnet-4-5", "build");
    // The revision before is not asked for again: its index goes.
    expect(cache.size).toBe(1);
    expect(toCandidates(state.tools)[0]).toBe(toCandidates(state.tools)[0]);
  });
});
