import { describe, expect, it } from "vitest";
import { createLocalIndex, DEFAULT_SETTINGS, type LocalRankingSettings } from "../../lib/selection/local";
import type { ConversationMessage, SelectorCandidate } from "../../lib/selection/types";

const catalog: SelectorCandidate[] = [
  { name: "github_create_issue", summary: "Create an issue in a repository", parameterNames: ["owner", "repo", "title", "body"] },
  { name: "github_list_pull_requests", summary: "List pull requests of a repository", parameterNames: ["owner", "repo"] },
  { name: "slack_post_message", summary: "Post a message to a channel", parameterNames: ["channel", "text"] },
  { name: "get_weather_forecast", summary: "Forecast for a city for the next days", tags: ["meteo"] },
  { name: "book_flight", summary: "Book an airline ticket between two airports" },
  { name: "recipe_finder", summary: "Find dishes by ingredient" },
  { name: "translate_text", summary: "Translate text into another language" },
];

const ask = (content: string): ConversationMessage[] => [{ role: "user", content }];

describe("createLocalIndex", () => {
  const index = createLocalIndex(catalog);

  it("reports its size", () => {
    expect(index.size).toBe(catalog.length);
    expect(createLocalIndex([]).size).toBe(0);
  });

  it("ranks the matching tool first", () => {
    const ranked = index.rank(ask("create a GitHub issue"), 5).map((tool) => tool.name);
    expect(ranked[0]).toBe("github_create_issue");
    expect(ranked.indexOf("github_create_issue")).toBeLessThan(ranked.includes("slack_post_message") ? ranked.indexOf("slack_post_message") : Infinity);
  });

  it("matches the parameters' descriptions and enum values", () => {
    const withSchemas = createLocalIndex([
      ...catalog,
      { name: "discord_create_channel", summary: "Create a channel in a server", parameterNames: ["type"], parameterText: "Kind of channel. text voice forum" },
    ]);
    expect(withSchemas.rank(ask("set up a voice room"), 3)[0]?.name).toBe("discord_create_channel");
  });

  it("ranks each task of a request on its own too, so the tools of the less wordy task gain", () => {
    const tools: SelectorCandidate[] = [
      { name: "k8s_get_pod_logs", summary: "Read the logs of a pod in a Kubernetes namespace" },
      { name: "k8s_describe_pod", summary: "Describe a pod in a Kubernetes namespace: status, logs and events" },
      { name: "k8s_delete_pod", summary: "Delete a pod in a Kubernetes namespace" },
      { name: "chat_post", summary: "Post a note to a chat room so that the people following it are told about it" },
      { name: "email_send", summary: "Send a message by email" },
    ];
    const request = ask("read the logs of the crashing pod in the payments namespace on kubernetes, then post a note");
    const chatShare = (settings: LocalRankingSettings): number => {
      const ranked = createLocalIndex(tools, settings).rank(request, 3);
      expect(ranked.slice(0, 2).map((tool) => tool.name)).toEqual(["k8s_get_pod_logs", "chat_post"]);
      return ranked[1].score / ranked[0].score;
    };
    // Scores of the fusion itself: intent coverage reorders the top and scores it by its own measure.
    const fused = { ...DEFAULT_SETTINGS, coverage: { ...DEFAULT_SETTINGS.coverage, weight: 0 } };
    const wholeOnly = chatShare({ ...fused, intents: { ...DEFAULT_SETTINGS.intents, weight: 0 } });
    expect(chatShare(fused)).toBeGreaterThan(wholeOnly);
    chatShare(DEFAULT_SETTINGS);
  });

  it("weighs the service a name starts with (a prefix three tools share) apart from the rest of the name", () => {
    const tools: SelectorCandidate[] = [
      { name: "zeta_create_item", summary: "Create an item" },
      { name: "zeta_delete_item", summary: "Delete an item" },
      { name: "zeta_list_items", summary: "List items" },
      { name: "omega_create_item", summary: "Create an item" },
    ];
    const withoutService = { ...DEFAULT_SETTINGS, fields: { ...DEFAULT_SETTINGS.fields, service: { ...DEFAULT_SETTINGS.fields.service, weight: 0 } } };
    expect(createLocalIndex(tools, withoutService).rank(ask("zeta"), 5)).toEqual([]);
    expect(createLocalIndex(tools, withoutService).rank(ask("omega"), 5)[0]?.name).toBe("omega_create_item");
    const ranked = createLocalIndex(tools)
      .rank(ask("create an item in zeta"), 5)
      .map((tool) => tool.name);
    expect(ranked[0]).toBe("zeta_create_item");
  });

  it("adds the words of the best matches to the query (pseudo-relevance feedback)", () => {
    const tools: SelectorCandidate[] = [
      { name: "weather_forecast", summary: "Forecast of rain and temperature for a city" },
      { name: "umbrella_advice", summary: "Whether to carry an umbrella, from rain and temperature" },
      { name: "translate_text", summary: "Translate text into another language" },
    ];
    const ranked = (settings: LocalRankingSettings) =>
      createLocalIndex(tools, settings)
        .rank(ask("forecast for Paris"), 3)
        .map((tool) => tool.name);
    expect(ranked({ ...DEFAULT_SETTINGS, feedback: { ...DEFAULT_SETTINGS.feedback, weight: 0 } })).toEqual(["weather_forecast"]);
    expect(ranked(DEFAULT_SETTINGS)).toEqual(["weather_forecast", "umbrella_advice"]);
  });

  it("matches tags and parameter names", () => {
    expect(index.rank(ask("meteo"), 3)[0]?.name).toBe("get_weather_forecast");
    expect(index.rank(ask("which channel text"), 3)[0]?.name).toBe("slack_post_message");
  });

  it("weighs the latest user message above older context", () => {
    const conversation: ConversationMessage[] = [
      { role: "user", content: "translate this text into French" },
      { role: "assistant", content: "Done, here is the translation." },
      { role: "user", content: "now post a message to the team channel" },
    ];
    const ranked = index.rank(conversation, 5).map((tool) => tool.name);
    expect(ranked[0]).toBe("slack_post_message");
    // Older context still counts, just less.
    expect(ranked).toContain("translate_text");
  });

  it("counts assistant messages less than user messages", () => {
    const userSaid = index.rank(
      [
        { role: "user", content: "translate text" },
        { role: "assistant", content: "pull requests" },
      ],
      5,
    );
    const assistantSaid = index.rank(
      [
        { role: "assistant", content: "translate text" },
        { role: "user", content: "pull requests" },
      ],
      5,
    );
    expect(userSaid[0].name).toBe("translate_text");
    expect(assistantSaid[0].name).toBe("github_list_pull_requests");
  });

  it("returns positive scores, best first, with ties broken by name", () => {
    const twins = createLocalIndex([
      { name: "zeta_search", summary: "Search documents" },
      { name: "alpha_search", summary: "Search documents" },
      { name: "unrelated", summary: "Play chess" },
    ]);
    const ranked = twins.rank(ask("search documents"), 10);
    expect(ranked.map((tool) => tool.name)).toEqual(["alpha_search", "zeta_search"]);
    expect(ranked[0].score).toBe(ranked[1].score);
    for (const tool of index.rank(ask("github repository issue message"), 10)) expect(tool.score).toBeGreaterThan(0);
    const scores = index.rank(ask("github repository issue message"), 10).map((tool) => tool.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("is deterministic", () => {
    const conversation = ask("list the pull requests and post a message");
    const first = index.rank(conversation, 5);
    expect(index.rank(conversation, 5)).toEqual(first);
    expect(createLocalIndex([...catalog].reverse()).rank(conversation, 5)).toEqual(first);
  });

  it("respects k bounds", () => {
    const query = ask("github repository issue pull requests message channel");
    expect(index.rank(query, 0)).toEqual([]);
    expect(index.rank(query, -3)).toEqual([]);
    expect(index.rank(query, Number.NaN)).toEqual([]);
    expect(index.rank(query, 1)).toHaveLength(1);
    expect(index.rank(query, 2.7)).toHaveLength(2);
    expect(index.rank(query, 1_000).length).toBeLessThanOrEqual(catalog.length);
  });

  it("returns nothing for a conversation with no usable words", () => {
    expect(index.rank([], 5)).toEqual([]);
    expect(index.rank(ask("can you please help me?"), 5)).toEqual([]);
    expect(index.rank([{ role: "system", content: "github issue" }], 5)).toEqual([]);
  });

  it("is immutable", () => {
    expect(Object.isFrozen(index)).toBe(true);
  });
});
