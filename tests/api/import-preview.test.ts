import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { previewImport } from "@/app/_services/imports";
import { migrateDatabase, type Db } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { stopImportWorker } from "@/db/import-runner";
import { listAudit } from "@/db/queries/audit";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { createCustomTool, listTools, updateTool } from "@/db/queries/tools";
import { EXPORT_FORMAT, EXPORT_VERSION } from "@/lib/catalogs/exchange";
import { createTestToken, postTeamImport, useFreshDatabase } from "./helpers";

const SCHEMA = { type: "object", properties: { id: { type: "string" } } };
let db: Db;
let auth: Record<string, string>;

function custom(name: string, summary: string, tags: string[] = []) {
  return { name, source: "custom", summary, description: `${summary} In full.`, inputSchema: SCHEMA, tags, enabled: true };
}

/** One of each: new, changed, as it is, another source's, and wrong (a name with a space). */
const FILE = {
  format: EXPORT_FORMAT,
  version: EXPORT_VERSION,
  tools: [
    custom("Notes_Search", "Search the notes."),
    custom("notes_get", "Read one note by its id.", ["notes"]),
    custom("notes_list", "List the notes."),
    { name: "bash", source: "builtin", summary: "x", description: "x", inputSchema: SCHEMA, tags: ["shell"], enabled: false },
    custom("grep", "My own grep."),
    custom("bad name", "Spaces are not allowed in names."),
  ],
};

async function useCatalog(file: boolean): Promise<void> {
  db = await useFreshDatabase();
  auth = {};
  // On PostgreSQL the test's database is one the import worker reaches already.
  if (file && !usesPostgres()) {
    db = migrateDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-import-preview-")), "toolshed.db"));
    (globalThis as { toolshedDb?: Db }).toolshedDb = db;
    auth = { authorization: `Bearer ${await createTestToken(db, "admin", "tests")}` };
  }
  await createCatalog(db, { name: "Team", id: "team" }, "test");
  await createCustomTool(db, "team", custom("notes_get", "Read a note."), "test");
  await createCustomTool(db, "team", custom("notes_list", "List the notes."), "test");
}

const postImport = (document: unknown, query = "", headers = auth) => postTeamImport(document, query, headers);

afterAll(async () => {
  await stopImportWorker();
});

describe.each([
  { path: "in memory", file: false },
  { path: "on a database file (the import worker)", file: true },
])("POST /api/catalogs/{catalog}/import?dryRun=1 ($path)", ({ file }) => {
  beforeEach(() => useCatalog(file));

  it("says per tool, by the file's own names and places, what an import would do, and writes nothing", async () => {
    const before = { revision: (await getCatalog(db, "team")).revision, tools: await listTools(db, "team"), audit: (await listAudit(db, "team")).length };
    const { status, body } = await postImport(FILE, "?dryRun=1");
    expect(status).toBe(200);
    expect(body).toEqual({
      preview: {
        format: { id: "toolshed", label: "Toolshed export (toolshed.catalog)" },
        notes: [],
        revision: before.revision,
        created: [{ name: "Notes_Search", index: 0 }],
        updated: [
          { name: "notes_get", index: 1, fields: ["summary", "description", "tags"] },
          { name: "bash", index: 3, fields: ["tags", "enabled"] },
        ],
        unchanged: [{ name: "notes_list", index: 2 }],
        skipped: [{ name: "grep", index: 4, reason: expect.stringContaining("builtin source") }],
        invalid: [{ name: "bad name", index: 5, problems: [{ field: "tools.5.name", message: expect.any(String) }] }],
      },
    });
    expect((await getCatalog(db, "team")).revision).toBe(before.revision);
    expect(await listTools(db, "team")).toEqual(before.tools);
    expect(await listAudit(db, "team")).toHaveLength(before.audit);
  });

  it("previews what the import then does, once the file is fixed", async () => {
    const fixed = { ...FILE, tools: FILE.tools.slice(0, 5) };
    const { body } = await postImport(fixed, "?dryRun=1");
    expect(body.preview.invalid).toEqual([]);
    const names = (list: { name: string }[]) => list.map((tool) => tool.name);
    const imported = await postImport(fixed);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({
      created: names(body.preview.created),
      updated: names(body.preview.updated),
      unchanged: names(body.preview.unchanged),
      skipped: body.preview.skipped.map(({ name, reason }: { name: string; reason: string }) => ({ name, reason })),
      revision: body.preview.revision + 1,
    });
  });

  it("refuses what the import refuses as a whole (not JSON, an unknown format), and needs write access", async () => {
    expect((await postImport({ format: "other", tools: [] }, "?dryRun=1")).body.error).toMatchObject({ field: "format" });
    expect((await postImport({ tools: [] }, "?dryRun=maybe")).status).toBe(400);
    const viewer = { authorization: `Bearer ${await createTestToken(db, "read", "viewer")}` };
    expect((await postImport(FILE, "?dryRun=1", viewer)).status).toBe(403);
  });
});

describe("previewImport (the page's server action)", () => {
  beforeEach(() => useCatalog(false));

  it("takes the file's text, and previews against the catalog as it is now", async () => {
    const first = await previewImport(db, "team", { text: JSON.stringify(FILE) });
    expect(first.unchanged).toEqual([{ name: "notes_list", index: 2 }]);
    await updateTool(db, "team", "notes_list", { tags: ["changed"] }, "someone else");
    const second = await previewImport(db, "team", { text: JSON.stringify(FILE) });
    expect(second.revision).toBe(first.revision + 1);
    expect(second.updated).toContainEqual({ name: "notes_list", index: 2, fields: ["tags"] });
  });
});
