import { describe, expect, it } from "vitest";
import { DEFAULT_LEARNING, LearnedEvidence, type UseEvidence } from "@/lib/selection/learned";
import { calibrateWeight } from "@/lib/selection/learned-calibration";
import { attributeUse, fuseLearned } from "@/lib/selection/learned-fusion";

const NOW = Date.UTC(2026, 11, 1);
const DAY = 24 * 3_600_000;

function evidence(tool: string, text: string, extra: Partial<UseEvidence> = {}): UseEvidence {
  return { tool, text, caller: "token:a", at: NOW, strength: 1, ...extra };
}

describe("LearnedEvidence", () => {
  it("scores a tool by the words of the requests that led to it, as a share of a perfect match", () => {
    const learned = new LearnedEvidence(DEFAULT_LEARNING, NOW);
    learned.add(evidence("time_travel_story", "tell me a story about ancient Egyptians and the pharaohs"));
    learned.add(evidence("time_travel_story", "what was life like for the Egyptians building pyramids"));
    learned.add(evidence("currency_convert", "convert 20 euros to dollars"));
    const scores = learned.scores("a day among the ancient Egyptians", NOW);
    expect(scores.get("time_travel_story")?.share).toBeGreaterThan(0.1);
    expect(scores.get("time_travel_story")?.share).toBeLessThanOrEqual(1);
    expect(scores.has("currency_convert")).toBe(false);
    expect(learned.scores("book a table for two tonight", NOW).size).toBe(0);
    expect(learned.learnedOf("time_travel_story", 3, NOW).words.map((word) => word.word)).toContain("egyptians");
  });

  it("caps one caller's weight per tool", () => {
    const learned = new LearnedEvidence({ ...DEFAULT_LEARNING, callerCap: 5 }, NOW);
    for (let index = 0; index < 100; index++) learned.add(evidence("spam_tool", `request number ${index} about anything`));
    expect(learned.learnedOf("spam_tool", 1, NOW).reports).toBe(5);
    learned.add(evidence("spam_tool", "another caller", { caller: "token:b" }));
    expect(learned.learnedOf("spam_tool", 1, NOW).reports).toBe(6);
  });

  it("does not let a tool reported for many unrelated requests take over a request that another tool was reported for", () => {
    const learned = new LearnedEvidence(DEFAULT_LEARNING, NOW);
    const topics = ["weather in Oslo", "invoice overdue", "currency rates today", "merge pull request", "reboot the server", "translate to German"];
    for (const [index, topic] of topics.entries()) learned.add(evidence("everything_tool", `${topic} please`, { caller: `token:${index}` }));
    learned.add(evidence("rates_tool", "currency rates today"));
    const scores = learned.scores("what are the currency rates today", NOW);
    expect(scores.get("rates_tool")!.share).toBeGreaterThan(scores.get("everything_tool")!.share);
  });

  it("ages events out: a report two half-lives old weighs a quarter", () => {
    const learned = new LearnedEvidence(DEFAULT_LEARNING, NOW);
    learned.add(evidence("old_tool", "archive the quarterly report", { at: NOW - 2 * (DEFAULT_LEARNING.halfLifeMs / DAY) * DAY }));
    expect(learned.learnedOf("old_tool", 1, NOW).reports).toBeCloseTo(0.25);
    const trustNow = learned.scores("archive the report", NOW).get("old_tool")!.trust;
    const trustLater = learned.scores("archive the report", NOW + DEFAULT_LEARNING.halfLifeMs).get("old_tool")!.trust;
    expect(trustLater).toBeLessThan(trustNow);
  });
});

describe("LearnedEvidence.copy", () => {
  it("copies what was learned, and what is added to the copy leaves the original as it was", () => {
    const learned = new LearnedEvidence(DEFAULT_LEARNING, NOW);
    learned.add(evidence("rates_tool", "currency rates today"));
    const copy = learned.copy();
    expect(copy.scores("currency rates", NOW)).toEqual(learned.scores("currency rates", NOW));
    copy.add(evidence("rates_tool", "exchange rates for the yen"));
    copy.add(evidence("yen_tool", "yen to euros"));
    expect(copy.size).toBe(3);
    expect(learned.size).toBe(1);
    expect(learned.learnedOf("rates_tool", 10, NOW)).toEqual({ words: expect.any(Array), reports: 1 });
    expect(learned.scores("yen", NOW).size).toBe(0);
  });
});

describe("calibrateWeight", () => {
  const WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango " +
    "uniform victor whiskey xray yankee zulu amber basalt cobalt denim ember flint"
  ).split(" ");
  const tools = WORDS.map((word) => `${word}_tool`);
  // A test double for the catalog's ranker: the same order whatever is asked, so only learning can find a tool.
  const rankBase = () => tools.map((name, index) => ({ name, score: tools.length - index }));
  const calibrate = (events: readonly UseEvidence[]) => {
    const learned = new LearnedEvidence(DEFAULT_LEARNING, NOW);
    for (const event of events) learned.add(event);
    return calibrateWeight(learned, DEFAULT_LEARNING, rankBase, new Set(tools), undefined, NOW);
  };
  const first = WORDS.map((word, index) => evidence(tools[index], `open the ${word} ledger`));
  const second = WORDS.map((word, index) => evidence(tools[index], `${word} ledger totals for march`));

  it("trusts learning where each tool's reports predict its next request, whatever order the reports came in", async () => {
    const byTool = await calibrate(first.flatMap((report, index) => [report, second[index]]));
    expect(byTool).toBeGreaterThan(0);
    // Each tool's two reports 32 apart: with two folds (by parity) they always fell in the same fold and learning looked useless.
    expect(await calibrate([...first, ...second])).toBe(byTool);
  });

  it("leaves the ranking alone where reports say nothing of later requests, and needs 20 reports to say anything", async () => {
    const misleading = WORDS.map((word, index) => evidence(tools.at(-1 - index)!, `${word} ledger totals for march`));
    expect(await calibrate([...first, ...misleading])).toBe(0);
    expect(await calibrate(first.slice(0, 19))).toBeUndefined();
  });
});

describe("fuseLearned", () => {
  const base = [
    { name: "a", score: 10 },
    { name: "b", score: 6 },
    { name: "c", score: 2 },
  ];

  it("adds the learned part, lifts a tool from below or outside the base ranking, and records how much was learned", () => {
    const fused = fuseLearned(base, new Map([["d", { share: 0.5, trust: 0.8 }]]), new Set(["a", "b", "c", "d"]), 3, 4);
    expect(fused.map((tool) => tool.name)).toEqual(["d", "a", "b"]);
    expect(fused[0]).toEqual({ name: "d", score: 16, learned: 16 });
    expect(fused[1]).toEqual({ name: "a", score: 10 });
  });

  it("never ranks a tool that is not a candidate, however much was learned for it", () => {
    const fused = fuseLearned(base, new Map([["denied", { share: 1, trust: 1 }]]), new Set(["a", "b", "c"]), 3, 4);
    expect(fused.map((tool) => tool.name)).toEqual(["a", "b", "c"]);
  });
});

describe("attributeUse", () => {
  const scoreIntent = (intent: string, tools: readonly string[]) =>
    new Map(tools.map((tool) => [tool, intent.includes(tool.split("_")[0]) ? 2 : intent.includes(tool.split("_")[1]) ? 1 : 0]));

  it("gives each tool of a request with several steps the step that asked for it", () => {
    const attributed = attributeUse("find flights to Lisbon for Friday, then book a hotel near the old town", ["flights_search", "hotel_book"], scoreIntent);
    expect(attributed.get("flights_search")).toBe("find flights to Lisbon for Friday");
    expect(attributed.get("hotel_book")).toBe("book a hotel near the old town");
  });

  it.each([
    [
      "keeps a step split at its commas whole",
      "find cheap flights to Lisbon, ideally direct ones leaving in the morning, and then book a hotel near the old town",
      "find cheap flights to Lisbon ideally direct ones leaving in the morning",
      "book a hotel near the old town",
    ],
    [
      "gives a step that no tool's text matches to the tool no step went to",
      "find flights to Lisbon for Friday; then somewhere quiet to sleep near the old town",
      "find flights to Lisbon for Friday;",
      "somewhere quiet to sleep near the old town",
    ],
  ])("%s", (_, request, flights, hotel) => {
    const attributed = attributeUse(request, ["flights_search", "hotel_book"], scoreIntent);
    expect(Object.fromEntries(attributed)).toEqual({ flights_search: flights, hotel_book: hotel });
  });

  it("gives each tool the whole request when it has more than 16 steps", () => {
    const request = Array.from({ length: 17 }, (_, step) => `find flights to city number ${step}`).join("; ");
    const attributed = attributeUse(`${request}; then book a hotel near the old town`, ["flights_search", "hotel_book"], scoreIntent);
    expect(attributed.get("hotel_book")).toBe(`${request}; then book a hotel near the old town`);
  });

  it("gives one tool, or a request of one step, the whole request", () => {
    expect(attributeUse("find flights, then a hotel", ["flights_search"], scoreIntent).get("flights_search")).toBe("find flights, then a hotel");
    expect(attributeUse("flights and hotels in Lisbon", ["flights_search", "hotel_book"], scoreIntent).get("hotel_book")).toBe("flights and hotels in Lisbon");
  });
});
