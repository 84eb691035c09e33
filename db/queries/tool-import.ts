import "server-only";
import type { Database } from "better-sqlite3";
import { eq, sql } from "drizzle-orm";
import type { InputSchema, ToolSource } from "@/lib/tools/types";
import { chunkedInsert, chunkedUpdate, insertChunks } from "../chunks";
import { type Db, isPostgres, sqliteOf, withSqlite, writeTransaction } from "../client";
import { catalogs, tools } from "../tables";
import { insertChangeRows, recordChanges } from "./audit";
import { catalogFingerprint } from "./guards";

/** A validated tool of an import (lib/catalogs/exchange.ts `parseImport`). */
export interface ImportDraft {
  name: string;
  /** Whose definition it is; "custom" when not said. */
  source?: ToolSource;
  summary: string;
  description: string;
  inputSchema: InputSchema;
  tags?: string[];
  enabled?: boolean;
}

/** A tool of the file left alone, and why. */
interface SkippedTool {
  name: string;
  reason: string;
}

/** What an import may change on a tool it updates. */
export type ImportedField = "summary" | "description" | "inputSchema" | "tags" | "enabled";

export interface ImportResult {
  created: string[];
  updated: string[];
  unchanged: string[];
  skipped: SkippedTool[];
  revision: number;
}

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
/** A tool as STORED_COLUMNS reads it. */
interface StoredTool {
  id: number;
  name: string;
  source: ToolSource;
  summary: string;
  description: string;
  inputSchema: string;
  enabled: boolean;
  tags: string;
  registered: boolean;
  requires: string;
  sourceRef: string | null;
  meta: string | null;
}

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

/** A tool the import updates, as UPDATE_COLUMNS: `managed` when its source defines it (only tags and enabled change then). */
type UpdateRow = [id: number, managed: boolean, summary: string, description: string, inputSchema: string, tags: string, enabled: boolean, updatedAt: Date];

/**
 * What an import will write, worked out before the write lock is taken: rows to insert, rows to
 * update and audit entries, every JSON value already serialised. `fingerprint` is the state of the
 * catalog it was computed from; the write plans again if the catalog changed meanwhile.
 */
export interface ImportPlan {
  catalogId: string;
  fingerprint: string;
  /** Rows of TOOL_COLUMNS. */
  inserts: unknown[][];
  updates: UpdateRow[];
  /** Rows of STAGED_AUDIT_COLUMNS. */
  audit: [subject: string, before: string | null, after: string][];
  result: Omit<ImportResult, "revision">;
  /** The fields each updated tool changes, by its name. */
  changedFields: Map<string, ImportedField[]>;
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

/** The audit snapshot of a stored tool: the same fields, in the same order, as db/queries/tools.ts writes. */
function storedSnapshot(row: StoredTool) {
  return {
    name: row.name,
    source: row.source,
    summary: row.summary,
    description: row.description,
    inputSchema: JSON.parse(row.inputSchema) as unknown,
    enabled: row.enabled,
    tags: JSON.parse(row.tags) as unknown,
    registered: row.registered,
    requires: JSON.parse(row.requires) as unknown,
    sourceRef: row.sourceRef,
    meta: row.meta === null ? null : (JSON.parse(row.meta) as unknown),
  };
}

/**
 * Why a tool of the file is left alone, or undefined when it applies: a tool applies only to a
 * tool of the same source, or is new and custom. A source's tool is never created or defined by
 * an import: its source does that (an MCP server this catalog lacks, say, is not made up).
 */
function skipReason(draft: ImportDraft, source: ToolSource, row: StoredTool | undefined): string | undefined {
  if (row ? row.source === source : source === "custom") return undefined;
  if (!row) return `It comes from the ${source} source, which does not provide it in this catalog: add that source here and import again to take its state.`;
  if (source === "custom")
    return `Here "${draft.name}" comes from the ${row.source} source, which defines it: the file's custom definition is not imported over it.`;
  return `In the file it comes from the ${source} source, here from the ${row.source} source: not the same tool.`;
}

/**
 * The fields a draft changes on its stored tool: on a tool another source manages, only the state
 * a person may set (tags, enabled). Values as planImport stores them (schema and tags serialised).
 */
function changedFields(row: StoredTool, managed: boolean, next: { summary: string; description: string; schema: string; tags: string; enabled: boolean }) {
  const fields: ImportedField[] = [];
  if (!managed && next.summary !== row.summary) fields.push("summary");
  if (!managed && next.description !== row.description) fields.push("description");
  if (!managed && next.schema !== row.inputSchema) fields.push("inputSchema");
  if (next.tags !== row.tags) fields.push("tags");
  if (next.enabled !== row.enabled) fields.push("enabled");
  return fields;
}

/**
 * Works out an import against the catalog as it is, tool by tool by its source in the file
 * (custom when it says none): a new custom tool is created, an existing custom one replaced; a
 * tool another source manages takes only what a person may change on it (enabled, tags) and its
 * source keeps its definition. Anything else is skipped with the reason. Reads only.
 */
export async function planImport(db: Db, catalogId: string, drafts: ImportDraft[], now = new Date()): Promise<ImportPlan> {
  // Read first: a change landing between it and the tools' read only makes the plan look stale.
  const fingerprint = await catalogFingerprint(db, catalogId);
  const existing = await storedTools(db, catalogId);

  const plan: ImportPlan = {
    catalogId,
    fingerprint,
    inserts: [],
    updates: [],
    audit: [],
    result: { created: [], updated: [], unchanged: [], skipped: [] },
    changedFields: new Map(),
  };
  for (const draft of drafts) {
    const row = existing.get(draft.name);
    const source = draft.source ?? "custom";
    const reason = skipReason(draft, source, row);
    if (reason !== undefined) {
      plan.result.skipped.push({ name: draft.name, reason });
      continue;
    }
    const schema = JSON.stringify(draft.inputSchema);
    const tags = draft.tags ?? [];
    if (!row) {
      const enabled = draft.enabled ?? true;
      plan.inserts.push([
        catalogId,
        draft.name,
        "custom",
        draft.summary,
        draft.description,
        schema,
        enabled,
        JSON.stringify(tags),
        true,
        "{}",
        null,
        null,
        now,
        now,
      ]);
      const after = {
        name: draft.name,
        source: "custom",
        summary: draft.summary,
        description: draft.description,
        inputSchema: draft.inputSchema,
        enabled,
        tags,
        registered: true,
        requires: {},
        sourceRef: null,
        meta: null,
      };
      plan.audit.push([draft.name, null, JSON.stringify(after)]);
      plan.result.created.push(draft.name);
      continue;
    }
    const enabled = draft.enabled ?? row.enabled;
    const managed = source !== "custom";
    const fields = changedFields(row, managed, { summary: draft.summary, description: draft.description, schema, tags: JSON.stringify(tags), enabled });
    if (fields.length === 0) {
      plan.result.unchanged.push(draft.name);
      continue;
    }
    const before = storedSnapshot(row);
    const changes = managed ? { enabled, tags } : { summary: draft.summary, description: draft.description, inputSchema: draft.inputSchema, tags, enabled };
    plan.updates.push([row.id, managed, draft.summary, draft.description, schema, JSON.stringify(tags), enabled, now]);
    plan.audit.push([draft.name, JSON.stringify(before), JSON.stringify({ ...before, ...changes })]);
    plan.result.updated.push(draft.name);
    plan.changedFields.set(draft.name, fields);
  }
  return plan;
}

/**
 * Writes a plan in one write transaction: the tools, one revision bump and an audit entry per
 * created or updated tool, all or nothing. A catalog that changed since the plan was made is
 * planned again inside the transaction. `drafts` are the plan's input, for that case.
 */
export function writeImport(db: Db, plan: ImportPlan, drafts: ImportDraft[], actor: string): Promise<ImportResult> {
  return writeTransaction(db, async (tx) => {
    const current = (await catalogFingerprint(tx, plan.catalogId)) === plan.fingerprint ? plan : await planImport(tx, plan.catalogId, drafts);
    if (current.audit.length === 0) {
      const [{ revision }] = await tx.select({ revision: catalogs.revision }).from(catalogs).where(eq(catalogs.id, plan.catalogId));
      return { ...current.result, revision };
    }
    // The revision first: writers of one catalog meet at its row, where PostgreSQL sends the later
    // one back to start again (new names both add would otherwise fail the later one as taken).
    const revision = await recordChanges(tx, plan.catalogId, actor, []);
    if (isPostgres(tx)) await writeRows(tx, current, revision, actor);
    else writeStaged(sqliteOf(tx), current, revision, actor);
    return { ...current.result, revision };
  });
}

/**
 * The write of writeImport on SQLite: the plan's rows go into temporary tables of this connection,
 * then into the catalog's tables in a few INSERT … SELECT and UPDATE … FROM statements, several
 * times quicker than binding every row against the indexed tables. Staged inside the write
 * transaction (on the connection it holds), so that two imports never stage over each other.
 */
function writeStaged(sqlite: Database, plan: ImportPlan, revision: number, actor: string): void {
  sqlite.exec(`
    CREATE TEMP TABLE IF NOT EXISTS import_tools (${TOOL_COLUMNS.join(", ")});
    CREATE TEMP TABLE IF NOT EXISTS import_updates (${UPDATE_COLUMNS.join(", ")});
    CREATE TEMP TABLE IF NOT EXISTS import_audit (${STAGED_AUDIT_COLUMNS.join(", ")});`);
  try {
    insertChunks(sqlite, "temp.import_tools", TOOL_COLUMNS, plan.inserts);
    insertChunks(sqlite, "temp.import_updates", UPDATE_COLUMNS, plan.updates);
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
async function writeRows(tx: Db, plan: ImportPlan, revision: number, actor: string): Promise<void> {
  await chunkedInsert(tx, "tools", TOOL_COLUMNS, plan.inserts);
  const own = plan.updates.filter(([, managed]) => !managed);
  const managed = plan.updates.filter(([, managed]) => managed);
  await chunkedUpdate(
    tx,
    "tools",
    "id",
    ["summary", "description", "input_schema", "tags", "enabled", "updated_at"],
    own.map(([id, , summary, description, inputSchema, tags, enabled, updatedAt]) => [id, summary, description, inputSchema, tags, enabled, updatedAt]),
  );
  await chunkedUpdate(
    tx,
    "tools",
    "id",
    ["tags", "enabled", "updated_at"],
    managed.map(([id, , , , , tags, enabled, updatedAt]) => [id, tags, enabled, updatedAt]),
  );
  await insertChangeRows(
    tx,
    plan.catalogId,
    revision,
    actor,
    plan.audit.map(([subject, before, after]) => ["tool", subject, "import", before, after]),
  );
}

/** Plans and writes an import (see planImport and writeImport). */
export async function importDrafts(db: Db, catalogId: string, drafts: ImportDraft[], actor: string): Promise<ImportResult> {
  return writeImport(db, await planImport(db, catalogId, drafts), drafts, actor);
}
