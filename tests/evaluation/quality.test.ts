import { describe, expect, it } from "vitest";
import {
  alwaysOnTools,
  confusableFinding,
  confusablePairs,
  groupFindings,
  neverChosenFindings,
  summaryFindings,
  summaryProblem,
  summaryTemplate,
  templatedSummaries,
} from "@/lib/evaluation/quality";
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

describe("boilerplate summaries", () => {
  it("flags openers that only say the tool is a tool, not summaries that start with what it does", () => {
    expect(summaryProblem({ name: "refund", summary: "This tool refunds a card payment through Stripe." })).toBe("boilerplate-summary");
    expect(summaryProblem({ name: "book_room", summary: "A function that reserves a meeting room for a slot." })).toBe("boilerplate-summary");
    expect(summaryProblem({ name: "translate", summary: "Use this tool to translate French paragraphs into German." })).toBe("boilerplate-summary");
    expect(summaryProblem({ name: "translate", summary: "Allows you to translate French paragraphs into German." })).toBe("boilerplate-summary");
    expect(summaryProblem({ name: "refund", summary: "Refunds a card payment through Stripe." })).toBeUndefined();
    expect(summaryProblem({ name: "tool_for_maps", summary: "Tools and maps of the city's public transport lines." })).toBeUndefined();
  });

  it("reads a summary's template with the tool's name and name words taken out", () => {
    expect(summaryTemplate({ name: "get_user", summary: "Calls the get_user endpoint of the Acme API 2." })).toBe(
      "calls the {name} endpoint of the acme api #.",
    );
    expect(summaryTemplate({ name: "getTeam", summary: "Get team from the Acme API." })).toBe("{name} from the acme api.");
  });

  it("flags a template three tools share, not a pair and not summaries that differ", () => {
    const tools = [
      { name: "get_user", summary: "Calls the get_user endpoint of the Acme API." },
      { name: "get_team", summary: "Calls the get_team endpoint of the Acme API." },
      { name: "list_invoices", summary: "Calls the list_invoices endpoint of the Acme API." },
      { name: "send_email", summary: "Send an email to recipients through Gmail with a subject." },
      { name: "send_sms", summary: "Send a text message to a phone number through Twilio." },
    ];
    expect([...templatedSummaries(tools).values()]).toEqual([["get_user", "get_team", "list_invoices"]]);
    const findings = summaryFindings(tools);
    expect(findings.map((finding) => [finding.kind, finding.tools[0]])).toEqual([
      ["boilerplate-summary", "get_user"],
      ["boilerplate-summary", "get_team"],
      ["boilerplate-summary", "list_invoices"],
    ]);
    expect(templatedSummaries(tools.slice(1))).toEqual(new Map());
  });
});

describe("always-on and built-in tools", () => {
  const agents = [{ baseTools: ["read", "write", "edit"] }, { baseTools: ["read", "grep"] }];
  const tool = (name: string, source = "custom") => ({ name, source, enabled: true, registered: true });

  it("never reports an agent's base tools as never chosen, and never tells a built-in to be disabled", () => {
    const alwaysOn = alwaysOnTools(agents);
    expect([...alwaysOn].sort()).toEqual(["edit", "grep", "read", "write"]);
    const findings = neverChosenFindings(
      [tool("read", "builtin"), tool("edit", "builtin"), tool("websearch", "builtin"), tool("jira_issue")],
      new Set(),
      alwaysOn,
      30,
    );
    expect(findings.map((finding) => finding.tools[0])).toEqual(["websearch", "jira_issue"]);
    expect(findings[0].fix).not.toMatch(/disable/i);
    expect(findings[1].fix).toMatch(/disable it if nobody does/);
  });

  it("does not suggest disabling one of a confusable pair when one of them is kept", () => {
    expect(confusableFinding({ tools: ["read", "read_file"], similarity: 0.9 }, new Set(["read"])).fix).not.toMatch(/disable/i);
    expect(confusableFinding({ tools: ["a_mail", "b_mail"], similarity: 0.9 }, new Set(["read"])).fix).toMatch(/disable one/);
  });
});

describe("grouping findings", () => {
  it("gives repeated findings one fix line, with every tool listed under it, largest group of a kind first", () => {
    const never = neverChosenFindings(
      ["a", "b", "c", "builtin_x"].map((name) => ({ name, source: name.startsWith("builtin") ? "builtin" : "custom", enabled: true, registered: true })),
      new Set(),
      new Set(),
      30,
    );
    const pairs = [confusableFinding({ tools: ["m1", "m2"], similarity: 0.95 }), confusableFinding({ tools: ["n1", "n2"], similarity: 0.85 })];
    const groups = groupFindings([...never, ...summaryFindings([{ name: "x", summary: "" }]), ...pairs]);
    expect(groups.map((group) => [group.kind, group.findings.map((finding) => finding.tools.join("~"))])).toEqual([
      ["confusable", ["m1~m2", "n1~n2"]],
      ["missing-summary", ["x"]],
      ["never-chosen", ["a", "b", "c"]],
      ["never-chosen", ["builtin_x"]],
    ]);
    expect(groups[2].message).toBe(never[0].message);
    expect(new Set(groups.map((group) => group.fix)).size).toBe(4);
  });
});
