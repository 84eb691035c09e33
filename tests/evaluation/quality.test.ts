import { describe, expect, it } from "vitest";
import { confusablePairs, summaryFindings, summaryProblem } from "@/lib/evaluation/quality";
import { syntheticCatalog } from "../../bench/synthetic";

describe("confusable pairs", () => {
  const tools = [
    { name: "send_email", summary: "Send an email message to recipients with a subject and body." },
    { name: "send_mail", summary: "Send an email message to recipients with a subject and a body." },
    { name: "create_calendar_event", summary: "Create an event in the team calendar with attendees and a time." },
    { name: "list_pull_requests", summary: "List the open pull requests of a GitHub repository." },
    { name: "get_weather", summary: "Current weather and forecast for a city." },
  ];

  it("flags a planted near-duplicate pair, with its similarity, and nothing else", () => {
    const pairs = confusablePairs(tools);
    expect(pairs.map((pair) => pair.tools)).toEqual([["send_email", "send_mail"]]);
    expect(pairs[0].similarity).toBeGreaterThan(0.8);
    expect(pairs[0].similarity).toBeLessThanOrEqual(1);
  });

  it("finds exactly the pairs a comparison of every pair finds, at scale", () => {
    const catalog = syntheticCatalog(800, 5).map((tool) => ({ name: tool.name, summary: tool.summary }));
    // Plant copies whose summaries differ by a word, among many tools sharing common words.
    const planted = catalog.slice(0, 20).map((tool, index) => ({ name: `${tool.name}_copy${index}`, summary: `${tool.summary} now` }));
    const all = [...catalog, ...planted];
    const threshold = 0.6;
    const fast = confusablePairs(all, threshold).map((pair) => pair.tools.join(" ~ "));
    for (const copy of planted) expect(fast.some((pair) => pair.includes(copy.name))).toBe(true);
    // At threshold 0 every term is indexed, so every pair sharing a word is compared: the reference.
    const reference = confusablePairs(all, 0)
      .filter((pair) => pair.similarity >= threshold)
      .map((pair) => pair.tools.join(" ~ "));
    expect(new Set(fast)).toEqual(new Set(reference));
  });
});

describe("summary checks", () => {
  it("tells a missing, a vague and a short summary apart from a good one", () => {
    expect(summaryProblem({ name: "send_email", summary: "  " })).toBe("missing-summary");
    expect(summaryProblem({ name: "send_email", summary: "Sends an email." })).toBe("vague-summary");
    expect(summaryProblem({ name: "run_job", summary: "Runs the tool and handles the result." })).toBe("vague-summary");
    expect(summaryProblem({ name: "search", summary: "Search invoices." })).toBe("short-summary");
    expect(summaryProblem({ name: "send_email", summary: "Send an email to recipients through Gmail with a subject." })).toBeUndefined();
  });

  it("names each tool once, with a suggested fix", () => {
    const findings = summaryFindings([
      { name: "a_tool", summary: "" },
      { name: "send_email", summary: "Send an email to recipients through Gmail with a subject." },
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: "missing-summary", tools: ["a_tool"] });
    expect(findings[0].fix).toBeTruthy();
  });
});
