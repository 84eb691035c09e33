import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { beforeEach, describe, expect, it } from "vitest";
import { migrateDatabase, sqliteOf, type Db } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { listAudit } from "@/db/queries/audit";
import { createCatalog } from "@/db/queries/catalogs";
import { deleteSourceTools, syncSourceTools } from "@/db/queries/source-tools";
import type { SourceToolDraft } from "@/lib/sources/sync-plan";
import { getTool, importTools, listTools, updateTool } from "@/db/queries/tools";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";
import { freshDatabase } from "../support/fresh-database";

const sync = (db: Db, drafts: SourceToolDraft[]) => syncSourceTools(db, "team", [{ source: "mcp", sourceRef: "big", drafts }], "sync");

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
async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.log(`${label}: ${Math.round(performance.now() - start)} ms`);
  return result;
}

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, "test");
});

describe("a source with 50,000 tools (one statement per list failed above 32,766 names)", () => {
  it("syncs them all, then re-syncs a few changed and a few gone, then loses them all from its listing and deletes them", { timeout: 300_000 }, async () => {
    const drafts = generated(50_000);
    const first = await timed("first sync of 50,000 tools", () => sync(db, drafts));
    expect(first).toMatchObject({ updated: [], unregistered: [], conflicts: [] });
    expect(first.added).toHaveLength(50_000);
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length + 50_000);

    const changed = new Set([7, 25_000, 49_999]);
    const removed = new Set([3, 33_333, 40_000, 40_001]);
    const next = drafts.flatMap((draft, index) =>
      removed.has(index) ? [] : [changed.has(index) ? { ...draft, description: `${draft.description} Now better.` } : draft],
    );
    const second = await timed("re-sync of 50,000 tools, 3 changed and 4 gone", () => sync(db, next));
    const names = (indexes: Set<number>) => [...indexes].map((index) => `big__tool_${index}`).sort();
    expect(second.added).toEqual([]);
    expect(second.updated.sort()).toEqual(names(changed));
    expect(second.unregistered.sort()).toEqual(names(removed));
    expect((await getTool(db, "team", "big__tool_25000")).description).toMatch(/Now better\.$/);
    expect((await getTool(db, "team", "big__tool_33333")).registered).toBe(false);

    const unchanged = await timed("re-sync of 50,000 unchanged tools", () => sync(db, next));
    expect(unchanged).toEqual({ added: [], updated: [], unregistered: [], conflicts: [] });

    const emptied = await timed("re-sync of a listing that lost all 49,996 tools", () => sync(db, []));
    expect(emptied.unregistered).toHaveLength(49_996);
    expect(await timed("deleting 50,000 tools", () => deleteSourceTools(db, "team", "mcp", "big", "sync"))).toHaveLength(50_000);
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length);
  });
});

describe("two syncs of one listing at the same time", () => {
  it("add its tools once: the later one finds nothing left to do", async () => {
    const drafts = generated(300);
    const results = await Promise.all([sync(db, drafts), sync(db, drafts)]);
    expect(results.map((result) => result.added.length).sort()).toEqual([0, 300]);
    expect(results.every((result) => result.updated.length === 0 && result.conflicts.length === 0)).toBe(true);
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length + 300);
    expect((await listAudit(db, "team", { limit: 1_000 })).filter((entry) => entry.action === "register")).toHaveLength(300);
  });
});

describe("what a person set on a source's tool", () => {
  const [search, get] = generated(2);
  beforeEach(async () => {
    await sync(db, [search, get]);
  });

  it("keeps the tags a person gave it when the source syncs again, even with new tags of its own", async () => {
    await updateTool(db, "team", search.name, { tags: ["mine"] }, "someone");
    await sync(db, [search, get]);
    expect((await getTool(db, "team", search.name)).tags).toEqual(["mine"]);

    const result = await sync(db, [
      { ...search, tags: ["mcp", "search"] },
      { ...get, tags: ["mcp", "read"] },
    ]);
    expect((await getTool(db, "team", search.name)).tags).toEqual(["mine"]);
    expect((await getTool(db, "team", get.name)).tags).toEqual(["mcp", "read"]);
    expect(result.updated.sort()).toEqual([get.name, search.name].sort());
  });

  it("keeps a person's tags and enabled state across the tool going away and coming back", async () => {
    await importTools(db, "team", [{ ...search, source: "mcp", tags: ["mine"], enabled: false }], "someone");
    await sync(db, [get]);
    await sync(db, [{ ...search, tags: ["mcp", "search"] }, get]);
    expect(await getTool(db, "team", search.name)).toMatchObject({ tags: ["mine"], enabled: false, registered: true });
  });

  it("gives the source's new tags to a tool whose tags no person edited", async () => {
    await sync(db, [{ ...search, tags: ["mcp", "search"] }, get]);
    expect((await getTool(db, "team", search.name)).tags).toEqual(["mcp", "search"]);
    await sync(db, [{ ...search, tags: ["search"] }, get]);
    expect((await getTool(db, "team", search.name)).tags).toEqual(["search"]);
  });

  it("audits a change of the source's tags that the person's tags hide, without touching the tool's tags", async () => {
    await importTools(db, "team", [{ ...search, source: "mcp", tags: ["mine"] }], "someone");
    await sync(db, [{ ...search, tags: ["mcp", "search"] }, get]);
    const [entry] = await listAudit(db, "team", { subjectKind: "tool", subject: search.name });
    expect(entry).toMatchObject({
      action: "update",
      actor: "sync",
      before: { tags: ["mine"], sourceTags: ["mcp"] },
      after: { tags: ["mine"], sourceTags: ["mcp", "search"] },
    });
  });
});

describe("migration 0007", () => {
  // A SQLite migration of a SQLite file.
  it.skipIf(usesPostgres())("takes as a source's tags those of its last sync that recorded them, so that a person's later tags stay", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "toolshed-migrations-"));
    cpSync("db/migrations", folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.tag < "0007") }));
    const file = path.join(folder, "old.db");
    const sqlite = new Database(file);
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    const schema = `'{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}'`;
    sqlite.exec(`INSERT INTO catalogs (id, name) VALUES ('team', 'Team');
      INSERT INTO tools (catalog_id, name, source, source_ref, summary, description, input_schema, tags, meta) VALUES
        ('team', 'big__tool_0', 'mcp', 'big', 'Tool number 0.', 'Does thing number 0.', ${schema}, '["mine"]', '{"mcpName":"tool_0"}'),
        ('team', 'big__tool_1', 'mcp', 'big', 'Tool number 1.', 'Does thing number 1.', ${schema}, '["mcp","old"]', '{"mcpName":"tool_1"}'),
        ('team', 'notes', 'custom', NULL, 'Notes.', 'Takes notes.', ${schema}, '["mine"]', NULL);
      INSERT INTO audit_entries (catalog_id, revision, subject_kind, subject, action, actor, before, after) VALUES
        ('team', 1, 'tool', 'big__tool_0', 'register', 'sync', NULL, '{"tags":["mcp"],"registered":true}'),
        ('team', 1, 'tool', 'big__tool_1', 'register', 'sync', NULL, '{"tags":["mcp"],"registered":true}'),
        ('team', 2, 'tool', 'big__tool_0', 'update', 'someone', '{"tags":["mcp"]}', '{"tags":["mine"]}'),
        ('team', 3, 'tool', 'big__tool_1', 'update', 'sync', '{"registered":true}', '{"registered":true}');`);
    sqlite.close();

    const upgraded = migrateDatabase(file);
    const sourceTags = sqliteOf(upgraded).prepare("SELECT name, source_tags AS tags FROM tools WHERE catalog_id = 'team' ORDER BY name").all();
    // big__tool_1's last sync entry predates whole definitions in the audit: its tags now are the source's.
    expect(sourceTags).toEqual([
      { name: "big__tool_0", tags: '["mcp"]' },
      { name: "big__tool_1", tags: '["mcp","old"]' },
      { name: "notes", tags: null },
    ]);
    const [first, second] = generated(2);
    await syncSourceTools(
      upgraded,
      "team",
      [
        {
          source: "mcp",
          sourceRef: "big",
          drafts: [
            { ...first, tags: ["mcp", "new"] },
            { ...second, tags: ["mcp", "new"] },
          ],
        },
      ],
      "sync",
    );
    expect((await getTool(upgraded, "team", first.name)).tags).toEqual(["mine"]);
    expect((await getTool(upgraded, "team", second.name)).tags).toEqual(["mcp", "new"]);
  });
});
