import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { AuditEntry } from "@/components/api-client";
import { AuditTimeline } from "@/components/audit-history";
import { CatalogAccessProvider } from "@/components/catalog-access";
import type { Access } from "@/lib/auth/policy";

vi.mock("@/app/catalogs/[catalog]/actions", () => ({ restoreVersionAction: vi.fn() }));

const tool = { name: "orders", summary: "Look up orders.", inputSchema: { type: "object", properties: { id: { type: "string" } } } };
const entry = (id: number, action: string, before: unknown, after: unknown): AuditEntry => ({
  id,
  catalogId: "team",
  revision: id,
  subjectKind: "tool",
  subject: "orders",
  action,
  actor: "ada@example.com",
  actorName: "ada (ada@example.com)",
  before,
  after,
  createdAt: "2025-03-12T23:30:05.000Z",
});
const entries = [
  entry(3, "delete", { ...tool, inputSchema: { type: "object", properties: { number: { type: "integer" } } } }, null),
  entry(2, "update", tool, { ...tool, inputSchema: { type: "object", properties: { number: { type: "integer" } } } }),
  entry(1, "create", null, tool),
];

function rendered(access: Access): string {
  const timeline = createElement(AuditTimeline, { catalogId: "team", entries, tool: "orders", onRestored: () => {} });
  // The children go as createElement's third argument, which the props' type does not see.
  return renderToStaticMarkup(createElement(CatalogAccessProvider, { access } as ComponentProps<typeof CatalogAccessProvider>, timeline));
}

describe("an audit history", () => {
  it("names who made each change, when, and what changed (a schema by its properties)", () => {
    const html = rendered("read");
    expect(html.match(/ada \(ada@example.com\)/g)).toHaveLength(3);
    expect(html).toContain('<time dateTime="2025-03-12T23:30:05.000Z"');
    expect(html).toContain("<code>number</code> added: integer");
    expect(html).toContain("<code>id</code> removed: string");
  });

  it("offers editors to restore each version (a deleted one too), and viewers not", () => {
    const html = rendered("write");
    expect(html).toContain('data-testid="restore-3"');
    expect(html).toContain("Restore the deleted version");
    expect(html.match(/Restore this version/g)).toHaveLength(2);
    expect(rendered("read")).not.toContain("Restore");
  });
});
