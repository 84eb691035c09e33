import "server-only";
import type { Database } from "better-sqlite3";
import { eq, sql } from "drizzle-orm";
import { type ImportDraft, type ImportPlan, type ImportResult, planImport, type StoredTool } from "@/lib/catalogs/import-plan";
import { chunkedInsert, chunkedUpdate, insertChunks } from "../chunks";
import { type Db, isPostgres, sqliteOf, withSqlite, writeTransaction } from "../client";
import { catalogs, tools } from "../tables";
import { insertChangeRows, recordChanges } from "./audit";
import { catalogFingerprint } from "./guards";

/** What an import reads of the catalog's tools: JSON columns as their text, compared and copied as such. */
const STORED_COLUMNS = {
  id: tools.id,
  name: tools.name,
  source: tools.source,
  summary: tools.summary,
  description: tools.description,
  inputSchema: sql<string>`${tools.inputSchema}`,
  enabled: tools.enabled,
  tags: sql<string>`${tools.tags}`,
  registered: tools.registered,
  requires: sql<string>`${tools.requires}`,
  sourceRef: tools.sourceRef,
  meta: sql<string | null>`${tools.meta}`,
};
/** A row of STORED_COLUMNS as SQLite gives it. */
type SqliteStoredTool = Omit<StoredTool, "enabled" | "registered"> & { enabled: number; registered: number };

/**
 * The catalog's tools by name, as STORED_COLUMNS reads them. SQLite reads them on its connection:
 * for 50,000 tools the builder's mapping of rows takes about a quarter longer.
 */
async function storedTools(db: Db, catalogId: string): Promise<Map<string, StoredTool>> {
  const byName = new Map<string, StoredTool>();
  if (isPostgres(db)) {
    for (const row of await db.select(STORED_COLUMNS).from(tools).where(eq(tools.catalogId, catalogId))) byName.set(row.name, row);
    return byName;
  }
  return withSqlite(db, (sqlite) => {
    const select = sqlite.prepare(
      `SELECT id, name, source, summary, description, input_schema AS inputSchema, enabled, tags, registered, requires, source_ref AS sourceRef, meta
       FROM tools WHERE catalog_id = ?`,
    );
    for (const row of select.iterate(catalogId) as IterableIterator<SqliteStoredTool>) {
      const { id, name, source, summary, description, inputSchema, tags, requires, sourceRef, meta } = row;
      byName.set(name, {
        id,
        name,
        source,
        summary,
        description,
        inputSchema,
        enabled: row.enabled === 1,
        tags,
        registered: row.registered === 1,
        requires,
        sourceRef,
        meta,
      });
    }
    return byName;
  });
}

/**
 * What an import will write, worked out before the write lock is taken (lib/catalogs/import-plan.ts)
 * from the catalog in the state `fingerprint` names; the write plans again if the catalog changed meanwhile.
 */
export interface CatalogImportPlan extends ImportPlan {
  catalogId: string;
  fingerprint: string;
}

const TOOL_COLUMNS = [
  "catalog_id",
  "name",
  "source",
  "summary",
  "description",
  "input_schema",
  "enabled",
  "tags",
  "registered",
  "requires",
  "source_ref",
  "meta",
  "created_at",
  "updated_at",
];
const UPDATE_COLUMNS = ["id", "managed", "summary", "description", "input_schema", "tags", "enabled", "updated_at"];
const STAGED_AUDIT_COLUMNS = ["subject", "before", "after"];

/** The plan's new tools as rows of TOOL_COLUMNS. */
const insertRows = (plan: CatalogImportPlan, now: Date) =>
  plan.creates.map((tool) => [
    plan.catalogId,
    tool.name,
    "custom",
    tool.summary,
    tool.description,
    tool.inputSchema,
    tool.enabled,
    tool.tags,
    true,
    "{}",
    null,
    null,
    now,
    now,
  ]);

/** The plan's updates as rows of UPDATE_COLUMNS. */
const updateRows = (plan: CatalogImportPlan, now: Date) =>
  plan.updates.map((update) => [update.id, update.managed, update.summary, update.description, update.inputSchema, update.tags, update.enabled, now]);

/** Reads the catalog and works out an import against it as it is (see planImport). Reads only. */
export async function planCatalogImport(db: Db, catalogId: string, drafts: ImportDraft[]): Promise<CatalogImportPlan> {
  // Read first: a change landing between it and the tools' read only makes the plan look stale.
  const fingerprint = await catalogFingerprint(db, catalogId);
  return { catalogId, fingerprint, ...planImport(drafts, await storedTools(db, catalogId)) };
}

/**
 * Writes a plan in one write transaction: the tools, one revision bump and an audit entry per
 * created or updated tool, all or nothing. A catalog that changed since the plan was made is
 * planned again inside the transaction. `drafts` are the plan's input, for that case.
 */
export function writeImport(db: Db, plan: CatalogImportPlan, drafts: ImportDraft[], actor: string): Promise<ImportResult> {
  return writeTransaction(db, async (tx) => {
    const current = (await catalogFingerprint(tx, plan.catalogId)) === plan.fingerprint ? plan : await planCatalogImport(tx, plan.catalogId, drafts);
    if (current.audit.length === 0) {
      const [{ revision }] = await tx.select({ revision: catalogs.revision }).from(catalogs).where(eq(catalogs.id, plan.catalogId));
      return { ...current.result, revision };
    }
    // The revision first: writers of one catalog meet at its row, where PostgreSQL sends the later
    // one back to start again (new names both add would otherwise fail the later one as taken).
    const revision = await recordChanges(tx, plan.catalogId, actor, []);
    const now = new Date();
    if (isPostgres(tx)) await writeRows(tx, current, revision, actor, now);
    else writeStaged(sqliteOf(tx), current, revision, actor, now);
    return { ...current.result, revision };
  });
}

/**
 * The write of writeImport on SQLite: the plan's rows go into temporary tables of this connection,
 * then into the catalog's tables in a few INSERT … SELECT and UPDATE … FROM statements, several
 * times quicker than binding every row against the indexed tables. Staged inside the write
 * transaction (on the connection it holds), so that two imports never stage over each other.
 */
function writeStaged(sqlite: Database, plan: CatalogImportPlan, revision: number, actor: string, now: Date): void {
  sqlite.exec(`
    CREATE TEMP TABLE IF NOT EXISTS import_tools (${TOOL_COLUMNS.join(", ")});
    CREATE TEMP TABLE IF NOT EXISTS import_updates (${UPDATE_COLUMNS.join(", ")});
    CREATE TEMP TABLE IF NOT EXISTS import_audit (${STAGED_AUDIT_COLUMNS.join(", ")});`);
  try {
    insertChunks(sqlite, "temp.import_tools", TOOL_COLUMNS, insertRows(plan, now));
    insertChunks(sqlite, "temp.import_updates", UPDATE_COLUMNS, updateRows(plan, now));
    insertChunks(sqlite, "temp.import_audit", STAGED_AUDIT_COLUMNS, plan.audit);
    sqlite.exec(`INSERT INTO tools (${TOOL_COLUMNS.join(", ")}) SELECT ${TOOL_COLUMNS.join(", ")} FROM temp.import_tools`);
    sqlite.exec(`UPDATE tools SET summary = u.summary, description = u.description, input_schema = u.input_schema, tags = u.tags, enabled = u.enabled, updated_at = u.updated_at
      FROM temp.import_updates AS u WHERE tools.id = u.id AND u.managed = 0`);
    sqlite.exec(
      "UPDATE tools SET enabled = u.enabled, tags = u.tags, updated_at = u.updated_at FROM temp.import_updates AS u WHERE tools.id = u.id AND u.managed = 1",
    );
    sqlite
      .prepare(
        `INSERT INTO audit_entries (catalog_id, revision, subject_kind, subject, action, actor, before, after)
         SELECT ?, ?, 'tool', subject, 'import', ?, before, after FROM temp.import_audit ORDER BY rowid`,
      )
      .run(plan.catalogId, revision, actor);
  } finally {
    sqlite.exec("DELETE FROM temp.import_tools; DELETE FROM temp.import_updates; DELETE FROM temp.import_audit;");
  }
}

/** The write of writeImport on PostgreSQL: multi-row INSERTs and UPDATE … FROM (VALUES …) straight into the tables. */
async function writeRows(tx: Db, plan: CatalogImportPlan, revision: number, actor: string, now: Date): Promise<void> {
  await chunkedInsert(tx, "tools", TOOL_COLUMNS, insertRows(plan, now));
  const own = plan.updates.filter((update) => !update.managed);
  const managed = plan.updates.filter((update) => update.managed);
  await chunkedUpdate(
    tx,
    "tools",
    "id",
    ["summary", "description", "input_schema", "tags", "enabled", "updated_at"],
    own.map(({ id, summary, description, inputSchema, tags, enabled }) => [id, summary, description, inputSchema, tags, enabled, now]),
  );
  await chunkedUpdate(
    tx,
    "tools",
    "id",
    ["tags", "enabled", "updated_at"],
    managed.map(({ id, tags, enabled }) => [id, tags, enabled, now]),
  );
  await insertChangeRows(
    tx,
    plan.catalogId,
    revision,
    actor,
    plan.audit.map(([subject, before, after]) => ["tool", subject, "import", before, after]),
  );
}

/** Plans and writes an import (see planCatalogImport and writeImport). */
export async function importDrafts(db: Db, catalogId: string, drafts: ImportDraft[], actor: string): Promise<ImportResult> {
  return writeImport(db, await planCatalogImport(db, catalogId, drafts), drafts, actor);
}
