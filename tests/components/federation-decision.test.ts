import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DecisionDetail, resultSummary } from "@/components/decision-detail";
import type { Decision } from "@/db/queries/decisions";

const heldBack = { outcome: "refused" as const, reason: "held back: an editor has not approved its current definition (Sources page)" };

const promptGet: Decision = {
  id: "d2",
  catalogId: "team",
  conversationId: "c1",
  revision: 4,
  kind: "prompt-get",
  path: "call",
  model: "gpt-5",
  agent: "build",
  mode: null,
  flags: [],
  input: { item: "notes__later", server: "notes", argumentsBytes: 2, argumentsDigest: "xyz", actor: "token:ci" },
  selector: null,
  fallback: null,
  raw: null,
  result: heldBack,
  rejected: [{ name: "notes__later", reason: heldBack.reason }],
  latencyMs: 3,
  tokens: {},
  createdAt: "2026-12-03T05:00:00.000Z",
};

describe("a resource read or prompt get decision, drawn", () => {
  it("shows what was asked, of which server, and why it was refused, without the selector's panels", () => {
    const html = renderToStaticMarkup(createElement(DecisionDetail, { catalogId: "team", decision: promptGet }));
    expect(html).toContain('data-testid="federation-input"');
    expect(html).toContain("notes__later");
    expect(html).toContain("2 bytes");
    expect(html).toContain('data-testid="federation-outcome"');
    expect(html).toContain("held back: an editor has not approved");
    expect(html).toContain("none: a gateway request selects nothing");
    expect(html).not.toContain('data-testid="decision-raw"');
    expect(html).not.toContain('data-testid="call-input"');
  });

  it("shows a read's resource and, when refused before routing, that no server took it", () => {
    const read: Decision = { ...promptGet, kind: "resource-read", input: { item: "notes://readme", server: null, actor: "token:ci" } };
    const html = renderToStaticMarkup(createElement(DecisionDetail, { catalogId: "team", decision: read }));
    expect(html).toContain("Resource");
    expect(html).toContain("none this session may use");
    expect(html).not.toContain("bytes");
  });

  it("sums them up in the decisions list by their outcome", () => {
    expect(resultSummary({ kind: "prompt-get", result: heldBack })).toBe("refused");
    expect(resultSummary({ kind: "resource-read", result: { outcome: "ok", reason: null } })).toBe("ok");
  });
});
