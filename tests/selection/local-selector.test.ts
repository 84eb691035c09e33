import { describe, expect, it } from "vitest";
import { LocalIndexCache } from "../../lib/selection/local";
import { candidateFingerprint, createLocalSelector } from "../../lib/selection/local-selector";
import type { SelectorCandidate } from "../../lib/selection/types";

const catalog: SelectorCandidate[] = [
  { name: "weather_forecast", summary: "Get the weather forecast for a city" },
  { name: "send_email", summary: "Send an email message to a recipient" },
  { name: "create_issue", summary: "Create an issue in a GitHub repository" },
];

const ask = (content: string) => [{ role: "user" as const, content }];

describe("local selector", () => {
  it("ranks candidates through the Selector interface", async () => {
    const selector = createLocalSelector();
    const output = await selector.select({ candidates: catalog, messages: ask("What's the weather in Paris tomorrow?"), k: 2, indexKey: "c@1" });
    expect(selector.id).toBe("local");
    expect(output.selector).toBe("local");
    expect(output.ranked[0].name).toBe("weather_forecast");
    expect(output.ranked.length).toBeLessThanOrEqual(2);
    expect(output.raw).toEqual(output.ranked);
    expect(output.invented).toEqual([]);
    expect(output.fallback).toBeUndefined();
  });

  it("builds the index once per key and candidate set", async () => {
    const cache = new LocalIndexCache();
    const selector = createLocalSelector(cache);
    await selector.select({ candidates: catalog, messages: ask("send an email"), k: 3, indexKey: "c@1" });
    await selector.select({ candidates: [...catalog], messages: ask("open an issue"), k: 3, indexKey: "c@1" });
    expect(cache.size).toBe(1);
    await selector.select({ candidates: catalog, messages: ask("send an email"), k: 3, indexKey: "c@2" });
    expect(cache.size).toBe(2);
  });

  it("does not serve a stale index when the candidates change under the same key", async () => {
    const cache = new LocalIndexCache();
    const selector = createLocalSelector(cache);
    await selector.select({ candidates: catalog, messages: ask("weather"), k: 3, indexKey: "c@1" });
    const withoutWeather = catalog.filter((candidate) => candidate.name !== "weather_forecast");
    const withRain = [...withoutWeather, { name: "rain_radar", summary: "Show the rain radar and weather map" }];
    const output = await selector.select({ candidates: withRain, messages: ask("weather"), k: 3, indexKey: "c@1" });
    expect(output.ranked.map((tool) => tool.name)).toEqual(["rain_radar"]);
    expect(cache.size).toBe(2);
  });
});

describe("candidateFingerprint", () => {
  it("depends on the names and their boundaries, not on the array", () => {
    expect(candidateFingerprint(catalog)).toBe(candidateFingerprint(catalog.map((c) => ({ ...c }))));
    expect(
      candidateFingerprint([
        { name: "ab", summary: "" },
        { name: "c", summary: "" },
      ]),
    ).not.toBe(
      candidateFingerprint([
        { name: "a", summary: "" },
        { name: "bc", summary: "" },
      ]),
    );
    expect(candidateFingerprint(catalog)).not.toBe(candidateFingerprint(catalog.slice(1)));
  });
});
