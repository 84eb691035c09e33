import { describe, expect, it } from "vitest";
import { casesNamingUnknownTools, casesOfLabelledSet } from "@/lib/evaluation/cases";
import { evaluateCases, notOfferedReason } from "@/lib/evaluation/run";
import type { SelectionOutput } from "@/lib/selection/selector";

/** A selector that answers each query with a fixed ranking. */
function scripted(rankings: Record<string, string[]>, fallback = false) {
  const depths: number[] = [];
  const select = async (query: string, depth: number): Promise<SelectionOutput> => {
    depths.push(depth);
    const ranked = rankings[query].map((name, index) => ({ name, score: 10 - index }));
    return { ranked, selector: "scripted", raw: ranked, invented: [], ...(fallback ? { fallback: { from: "model", cause: "timeout" } } : {}) };
  };
  return { select, depths };
}

describe("evaluateCases", () => {
  it("scores every case and reports each miss with ranks, scores and summaries", async () => {
    const { select, depths } = scripted({ "send mail": ["send_email", "read_email"], "open ticket": ["list_tickets", "x", "create_ticket"] });
    const progress: number[] = [];
    const outcome = await evaluateCases(
      [
        { id: "one", query: "send mail", expected: ["send_email"] },
        { query: "open ticket", expected: ["create_ticket"] },
      ],
      { k: 2, select, summaryOf: (name) => `summary of ${name}`, onProgress: (done) => void progress.push(done) },
    );
    expect(depths).toEqual([10, 10]);
    expect(progress).toEqual([1, 2]);
    expect(outcome.metrics["recall@1"]).toBe(0.5);
    expect(outcome.metrics["recall@5"]).toBe(1);
    expect(outcome.chosen).toEqual([
      ["send_email", "read_email"],
      ["list_tickets", "x"],
    ]);
    expect(outcome.misses).toEqual([
      {
        case: 1,
        query: "open ticket",
        expected: [{ name: "create_ticket", rank: 3, score: 8, summary: "summary of create_ticket" }],
        chosen: [
          { name: "list_tickets", rank: 1, score: 10, summary: "summary of list_tickets" },
          { name: "x", rank: 2, score: 9, summary: "summary of x" },
        ],
      },
    ]);
    expect(outcome.fallbacks).toBe(0);
  });

  it("says why an expected tool the catalog does not offer was not ranked, instead of only that it was not", async () => {
    const { select } = scripted({ "translate this": ["send_email"] });
    const reasons = new Map([["translate", "disabled"]]);
    const outcome = await evaluateCases([{ query: "translate this", expected: ["translate", "summarise"] }], {
      k: 1,
      select,
      summaryOf: () => "",
      notOfferedBecause: (name) => reasons.get(name),
    });
    expect(outcome.misses[0].expected).toEqual([
      { name: "translate", rank: null, score: null, summary: "", notOffered: "disabled" },
      { name: "summarise", rank: null, score: null, summary: "" },
    ]);
  });

  it("names the reason a tool is not offered: disabled, held back, unreachable, no longer listed", () => {
    const offered = { enabled: true, registered: true };
    expect(notOfferedReason(offered)).toBeUndefined();
    expect(notOfferedReason({ ...offered, enabled: false })).toBe("disabled");
    expect(notOfferedReason({ ...offered, heldBack: "changed" })).toMatch(/^held back: .*changed/);
    expect(notOfferedReason({ enabled: true, registered: false, unavailableHere: true })).toBe("its MCP server cannot be reached");
    expect(notOfferedReason({ enabled: true, registered: false })).toMatch(/^not registered/);
  });

  it("reads deeper than 10 when k asks for more, and counts fallbacks", async () => {
    const { select, depths } = scripted({ q: ["a"] }, true);
    const outcome = await evaluateCases([{ query: "q", expected: ["b"] }], { k: 25, select, summaryOf: () => "" });
    expect(depths).toEqual([25]);
    expect(outcome.fallbacks).toBe(1);
    expect(outcome.misses[0].expected).toEqual([{ name: "b", rank: null, score: null, summary: "" }]);
  });
});

describe("labelled sets", () => {
  it("reads the bench/data format, ids as text, tools ignored", () => {
    const cases = casesOfLabelledSet({
      tools: [{ name: "t", description: "d" }],
      cases: [
        { id: 7, query: "q", expected: ["t"] },
        { query: "r", expected: ["u"] },
      ],
    });
    expect(cases).toEqual([
      { id: "7", query: "q", expected: ["t"] },
      { query: "r", expected: ["u"] },
    ]);
  });

  it("reports the cases that name tools the catalog lacks", () => {
    const known = new Set(["a", "b"]);
    const found = casesNamingUnknownTools([{ expected: ["a"] }, { id: "x", expected: ["b", "zz", "yy"] }], (name) => known.has(name));
    expect(found).toEqual([{ index: 1, id: "x", names: ["zz", "yy"] }]);
  });
});
