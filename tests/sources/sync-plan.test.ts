import { describe, expect, it } from "vitest";
import { type ListingState, planSync, type SourceListing, type SourceToolDraft, type StoredSourceTool } from "@/lib/sources/sync-plan";
import { SOURCE_REDEFINE_ACTION } from "@/lib/tools/types";

const SCHEMA = { type: "object" as const, properties: {} };

const draft = (name: string, fields: Partial<SourceToolDraft> = {}): SourceToolDraft => ({
  name,
  summary: `Does ${name}.`,
  description: "",
  inputSchema: SCHEMA,
  tags: ["source-tag"],
  ...fields,
});

/** A stored tool exactly as `draft(name)` of server "srv" left it at the last sync. */
function stored(name: string, fields: Partial<StoredSourceTool> = {}): StoredSourceTool {
  return {
    id: 1,
    name,
    source: "mcp",
    sourceRef: "srv",
    summary: `Does ${name}.`,
    description: "",
    inputSchema: SCHEMA,
    tags: ["source-tag"],
    sourceTags: ["source-tag"],
    meta: null,
    registered: true,
    ...fields,
  };
}

function state(drafts: SourceToolDraft[], rows: StoredSourceTool[] = [], listing: Partial<SourceListing> = {}): ListingState {
  const mine = rows.filter((row) => row.source === (listing.source ?? "mcp") && row.sourceRef === (listing.sourceRef ?? "srv"));
  return {
    listing: { source: "mcp", sourceRef: "srv", drafts, ...listing },
    stored: new Map(rows.filter((row) => drafts.some((d) => d.name === row.name)).map((row) => [row.name, row])),
    registered: mine.filter((row) => row.registered).map(({ id, name }) => ({ id, name })),
    hasTools: mine.length > 0,
  };
}

describe("planSync", () => {
  it("adds a new tool with its source's definition and a register entry", () => {
    const plan = planSync([state([draft("fresh")], [stored("other", { id: 2 })])]);
    expect(plan.result).toMatchObject({ added: ["fresh"], updated: [], conflicts: [] });
    expect(plan.inserts).toEqual([
      {
        name: "fresh",
        source: "mcp",
        sourceRef: "srv",
        values: {
          summary: "Does fresh.",
          description: "",
          inputSchema: SCHEMA,
          tags: ["source-tag"],
          sourceTags: ["source-tag"],
          meta: null,
          registered: true,
        },
        approvedDefinition: null,
      },
    ]);
    expect(plan.entries[0]).toMatchObject({ subjectKind: "tool", subject: "fresh", action: "register", after: { source: "mcp", sourceRef: "srv" } });
  });

  it("approves a pinned source's first listing, and no other", () => {
    const first = planSync([state([draft("a")])]);
    expect(first.inserts[0].approvedDefinition).toEqual({ summary: "Does a.", description: "", inputSchema: SCHEMA, meta: null });
    const later = planSync([state([draft("a"), draft("b")], [stored("a")])]);
    expect(later.inserts.map((tool) => [tool.name, tool.approvedDefinition])).toEqual([["b", null]]);
    const plugin = planSync([state([draft("p")], [], { source: "plugin", sourceRef: "file.json" })]);
    expect(plugin.inserts[0].approvedDefinition).toBeNull();
  });

  it("writes nothing for a listing that matches the catalog", () => {
    const plan = planSync([state([draft("same")], [stored("same")])]);
    expect([plan.inserts, plan.updates, plan.gone, plan.entries]).toEqual([[], [], [], []]);
    expect(plan.result).toEqual({ added: [], updated: [], unregistered: [], conflicts: [] });
  });

  it("redefines a tool whose source changed its definition, recording before and after", () => {
    const plan = planSync([state([draft("tool", { description: "Now longer." })], [stored("tool", { id: 9 })])]);
    expect(plan.result.updated).toEqual(["tool"]);
    expect(plan.updates).toEqual([{ id: 9, values: expect.objectContaining({ description: "Now longer.", registered: true }) }]);
    expect(plan.entries[0]).toMatchObject({ action: SOURCE_REDEFINE_ACTION, before: { description: "" }, after: { description: "Now longer." } });
  });

  it("registers again a tool its source lists anew, and records only a tag change as an update", () => {
    const back = planSync([state([draft("tool")], [stored("tool", { registered: false })])]);
    expect(back.entries[0]).toMatchObject({ action: "register", before: { registered: false }, after: { registered: true } });
    const retagged = planSync([state([draft("tool", { tags: ["new-tag"] })], [stored("tool")])]);
    expect(retagged.entries[0]).toMatchObject({ action: "update", after: { tags: ["new-tag"], sourceTags: ["new-tag"] } });
  });

  it("keeps tags a person changed, while the source's own tags move on underneath", () => {
    const plan = planSync([state([draft("tool", { tags: ["new-tag"] })], [stored("tool", { tags: ["mine"] })])]);
    expect(plan.updates[0].values).toMatchObject({ tags: ["mine"], sourceTags: ["new-tag"] });
  });

  it("has no say over enabled: nothing it writes carries it", () => {
    const plan = planSync([state([draft("fresh"), draft("tool", { summary: "New." })], [stored("tool")])]);
    expect(plan.inserts[0].values).not.toHaveProperty("enabled");
    expect(plan.updates[0].values).not.toHaveProperty("enabled");
  });

  it("unregisters the source's registered tools it no longer lists, and leaves unregistered ones alone", () => {
    const plan = planSync([state([draft("kept")], [stored("kept"), stored("gone", { id: 5 }), stored("long-gone", { id: 6, registered: false })])]);
    expect(plan.gone).toEqual([{ id: 5, name: "gone" }]);
    expect(plan.result.unregistered).toEqual(["gone"]);
    expect(plan.entries).toEqual([{ subjectKind: "tool", subject: "gone", action: "unregister", before: { registered: true }, after: { registered: false } }]);
  });

  it("leaves out a name another source has, and a name an earlier listing of the same sync takes", () => {
    const custom = stored("taken", { source: "custom", sourceRef: null });
    const plan = planSync([state([draft("taken"), draft("shared")], [custom]), state([draft("shared")], [], { source: "plugin", sourceRef: "file.json" })]);
    expect(plan.result.added).toEqual(["shared"]);
    expect(plan.result.conflicts).toEqual([
      { field: "taken", message: '"taken" already exists in this catalog as a custom tool; this one is left out.' },
      { field: "shared", message: '"shared" already exists in this catalog as a mcp tool; this one is left out.' },
    ]);
    expect(plan.inserts.map((tool) => [tool.name, tool.source])).toEqual([["shared", "mcp"]]);
  });

  it("treats the same source kind under another ref as another source", () => {
    const plan = planSync([state([draft("tool")], [stored("tool", { sourceRef: "other-srv" })])]);
    expect(plan.result.conflicts.map((conflict) => conflict.field)).toEqual(["tool"]);
    expect(plan.updates).toEqual([]);
  });
});
