import { beforeEach, describe, expect, it } from "vitest";
import { openDb, type Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { createCatalog } from "@/db/queries/catalogs";
import { deleteSourceTools, syncSourceTools, unregisterSourceTools, type SourceToolDraft } from "@/db/queries/source-tools";
import { getTool, listTools } from "@/db/queries/tools";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";

const sync = (db: Db, drafts: SourceToolDraft[]) => syncSourceTools(db, "team", "mcp", "big", drafts, "sync");

function generated(count: number): SourceToolDraft[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `big__tool_${index}`,
    summary: `Tool number ${index}.`,
    description: `Does thing number ${index}.`,
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    tags: ["mcp"],
    meta: { mcpName: `tool_${index}` },
  }));
}

/** Runs and prints how long it took: the sync's speed is watched by eye, not asserted. */
function timed<T>(label: string, work: () => T): T {
  const start = performance.now();
  const result = work();
  console.log(`${label}: ${Math.round(performance.now() - start)} ms`);
  return result;
}

let db: Db;
beforeEach(() => {
  db = openDb(":memory:");
  createCatalog(db, { name: "Team", id: "team" }, "test");
});

describe("a source with 50,000 tools (one statement per list failed above 32,766 names)", () => {
  it("syncs them all, then re-syncs a few changed and a few gone, then unregisters and deletes them all", { timeout: 300_000 }, () => {
    const drafts = generated(50_000);
    const first = timed("first sync of 50,000 tools", () => sync(db, drafts));
    expect(first).toMatchObject({ updated: [], unregistered: [], conflicts: [] });
    expect(first.added).toHaveLength(50_000);
    expect(listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length + 50_000);

    const changed = new Set([7, 25_000, 49_999]);
    const removed = new Set([3, 33_333, 40_000, 40_001]);
    const next = drafts.flatMap((draft, index) => (removed.has(index) ? [] : [changed.has(index) ? { ...draft, description: `${draft.description} Now better.` } : draft]));
    const second = timed("re-sync of 50,000 tools, 3 changed and 4 gone", () => sync(db, next));
    const names = (indexes: Set<number>) => [...indexes].map((index) => `big__tool_${index}`).sort();
    expect(second.added).toEqual([]);
    expect(second.updated.sort()).toEqual(names(changed));
    expect(second.unregistered.sort()).toEqual(names(removed));
    expect(getTool(db, "team", "big__tool_25000").description).toMatch(/Now better\.$/);
    expect(getTool(db, "team", "big__tool_33333").registered).toBe(false);

    const unchanged = timed("re-sync of 50,000 unchanged tools", () => sync(db, next));
    expect(unchanged).toEqual({ added: [], updated: [], unregistered: [], conflicts: [] });

    expect(timed("unregistering 49,996 tools", () => unregisterSourceTools(db, "team", "mcp", "big", "sync", "gone"))).toHaveLength(49_996);
    expect(timed("deleting 50,000 tools", () => deleteSourceTools(db, "team", "mcp", "big", "sync"))).toHaveLength(50_000);
    expect(listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length);
  });
});
