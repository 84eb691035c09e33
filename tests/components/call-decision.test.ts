import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CallInputView, CallReplayVerdict, CallResultView } from "@/components/call-decision";
import { DecisionDetail, resultSummary } from "@/components/decision-detail";
import type { Decision } from "@/db/queries/decisions";
import type { CallOutcome } from "@/lib/selection/replay";

const input = {
  tool: "notes__notes_get",
  via: "ToolCall" as const,
  argumentsBytes: 15,
  argumentsDigest: "abc",
  definitionDigest: "def-1",
  actor: "token:ci",
  provider: null,
};
const declined = {
  outcome: "refused" as const,
  reason: "The user declined this call of notes__notes_get: it was not made.",
  needsApproval: true,
  approval: "declined" as const,
};

const called: CallOutcome = { tool: "notes__notes_get", outcome: "ok", reason: null, needsApproval: false, approval: null, definitionDigest: "def-1" };

describe("a gateway call decision, drawn", () => {
  it("shows the call (tool, how it was called, the arguments' size, who) and what the gateway did with it", () => {
    const html = renderToStaticMarkup(createElement("div", null, createElement(CallInputView, { input }), createElement(CallResultView, { result: declined })));
    expect(html).toContain("notes__notes_get");
    expect(html).toContain("through ToolCall");
    expect(html).toContain("15 bytes");
    expect(html).toContain("token:ci");
    expect(html).toContain('data-testid="call-outcome"');
    expect(html).toContain("refused");
    expect(html).toContain("The user declined this call");
    expect(html).toContain("declined by the user");
  });

  it("is drawn on the decision page as a call, without the selector's panels", () => {
    const decision: Decision = {
      id: "d1",
      catalogId: "team",
      conversationId: "c1",
      revision: 3,
      kind: "call",
      path: "call",
      model: "gpt-5",
      agent: "careful",
      mode: null,
      flags: [],
      input,
      selector: null,
      fallback: null,
      raw: null,
      result: declined,
      rejected: [{ name: input.tool, reason: declined.reason }],
      latencyMs: 0,
      tokens: {},
      createdAt: "2026-12-03T05:00:00.000Z",
    };
    const html = renderToStaticMarkup(createElement(DecisionDetail, { catalogId: "team", decision }));
    expect(html).toContain('data-testid="call-input"');
    expect(html).toContain('data-testid="call-outcome"');
    expect(html).toContain("none: a gateway request selects nothing");
    expect(html).not.toContain('data-testid="decision-raw"');
    expect(html).not.toContain('data-testid="decision-query"');
  });

  it("sums a call up in the decisions list by its outcome", () => {
    expect(resultSummary({ kind: "call", result: declined })).toBe("refused (declined by the user)");
    expect(resultSummary({ kind: "call", result: { outcome: "ok", reason: null, needsApproval: false, approval: null } })).toBe("ok");
    expect(resultSummary({ kind: "tool-search", result: { tools: ["a", "b"] } })).toBe("2 found");
    expect(resultSummary({ kind: "preselect", result: { selected: [{ name: "a", score: 1 }] } })).toBe("1 selected");
  });

  it("says whether the call would be let through today, and why not, with what changed since", () => {
    const allowed = renderToStaticMarkup(
      createElement(CallReplayVerdict, {
        before: called,
        after: { ...called, outcome: "allowed" },
        diff: { definitionChanged: false, approvalChanged: false },
      }),
    );
    expect(allowed).toContain("Allowed today");
    expect(allowed).not.toContain("definition changed");

    const refused = renderToStaticMarkup(
      createElement(CallReplayVerdict, {
        before: called,
        after: { ...called, outcome: "refused", reason: "held back: its MCP server changed its definition", needsApproval: true, definitionDigest: "def-2" },
        diff: { definitionChanged: true, approvalChanged: true },
      }),
    );
    expect(refused).toContain("Refused today");
    expect(refused).toContain("held back: its MCP server changed its definition");
    expect(refused).toContain("Its definition changed since the call");
    expect(refused).toContain("The agent must now ask the user before each call");
  });
});
