import "server-only";
import type { Database } from "better-sqlite3";
import type { InputSchema, ToolSource } from "@/lib/tools/types";
import { insertChunks } from "../chunks";
import { type Db, sqliteOf, withSqlite, writeTransaction } from "../client";
import { recordChanges } from "./audit";
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
export interface SkippedTool {
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

/** A tool of the catalog as stored (JSON columns still text). */
interface StoredTool {
  id: number;
  name: string;
  source: string;
  summary: string;
  description: string;
  input_schema: string;
  enabled: number;
  tags: string;
  registered: number;
  requires: string;
  source_ref: string | null;
  meta: string | null;
}

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
  /** Rows of UPDATE_COLUMNS. */
  updates: unknown[][];
  /** Rows of STAGED_AUDIT_COLUMNS. */
  audit: unknown[][];
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
    inputSchema: JSON.parse(row.input_schema) as unknown,
    enabled: row.enabled === 1,
    tags: JSON.parse(row.tags) as unknown,
    registered: row.registered === 1,
    requires: JSON.parse(row.requires) as unknown,
    sourceRef: row.source_ref,
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
  if (!managed && next.schema !== row.input_schema) fields.push("inputSchema");
  if (next.tags !== row.tags) fields.push("tags");
  if (next.enabled !== (row.enabled === 1)) fields.push("enabled");
  return fields;
}

/**
 * Works out an import against the catalog as it is, tool by tool by its source in the file
 * (custom when it says none): a new custom tool is created, an existing custom one replaced; a
 * tool another source manages takes only what a person may change on it (enabled, tags) and its
 * source keeps its definition. Anything else is skipped with the reason. Reads only.
 */
export function planImport(db: Db, catalogId: string, drafts: ImportDraft[], now = Date.now()): Promise<ImportPlan> {
  return withSqlite(db, (sqlite) => planOn(sqlite, catalogId, drafts, now));
}

function planOn(sqlite: Database, catalogId: string, drafts: ImportDraft[], now: number): ImportPlan {
  const fingerprint = catalogFingerprint(sqlite, catalogId);
  const existing = new Map<string, StoredTool>();
  const select = sqlite.prepare(
    "SELECT id, name, source, summary, description, input_schema, enabled, tags, registered, requires, source_ref, meta FROM tools WHERE catalog_id = ?",
  );
  for (const row of select.iterate(catalogId) as IterableIterator<StoredTool>) existing.set(row.name, row);

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
        enabled ? 1 : 0,
        JSON.stringify(tags),
        1,
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
    const enabled = draft.enabled ?? row.enabled === 1;
    const managed = source !== "custom";
    const fields = changedFields(row, managed, { summary: draft.summary, description: draft.description, schema, tags: JSON.stringify(tags), enabled });
    if (fields.length === 0) {
      plan.result.unchanged.push(draft.name);
      continue;
    }
    const before = storedSnapshot(row);
    const changes = managed ? { enabled, tags } : { summary: draft.summary, description: draft.description, inputSchema: draft.inputSchema, tags, enabled };
    plan.updates.push([row.id, managed ? 1 : 0, draft.summary, draft.description, schema, JSON.stringify(tags), enabled ? 1 : 0, now]);
    plan.audit.push([draft.name, JSON.stringify(before), JSON.stringify({ ...before, ...changes })]);
    plan.result.updated.push(draft.name);
    plan.changedFields.set(draft.name, fields);
  }
  return plan;
}

/**
 * The plan's rows go into temporary tables of this connection, then into the catalog's tables in
 * a few INSERT … SELECT and UPDATE … FROM statements: several times quicker than binding every row
 * against the indexed tables. Staged inside the write transaction, so that two imports sharing the
 * connection never stage over each other.
 */
function stage(sqlite: Database, plan: ImportPlan): void {
  sqlite.exec(`
    CREATE TEMP TABLE IF NOT EXISTS import_tools (${TOOL_COLUMNS.join(", ")});
    CREATE TEMP TABLE IF NOT EXISTS import_updates (${UPDATE_COLUMNS.join(", ")});
    CREATE TEMP TABLE IF NOT EXISTS import_audit (${STAGED_AUDIT_COLUMNS.join(", ")});`);
  clearStage(sqlite);
  insertChunks(sqlite, "temp.import_tools", TOOL_COLUMNS, plan.inserts);
  insertChunks(sqlite, "temp.import_updates", UPDATE_COLUMNS, plan.updates);
  insertChunks(sqlite, "temp.import_audit", STAGED_AUDIT_COLUMNS, plan.audit);
}

function clearStage(sqlite: Database): void {
  sqlite.exec("DELETE FROM temp.import_tools; DELETE FROM temp.import_updates; DELETE FROM temp.import_audit;");
}

/**
 * Writes a plan in one immediate transaction: the tools, one revision bump and an audit entry per
 * created or updated tool, all or nothing. A catalog that changed since the plan was made is
 * planned again inside the transaction. `drafts` are the plan's input, for that case.
 */
export function writeImport(db: Db, plan: ImportPlan, drafts: ImportDraft[], actor: string): Promise<ImportResult> {
  return writeTransaction(db, async (tx) => {
    const sqlite = sqliteOf(tx);
    try {
      return await writeStaged(tx, sqlite, plan, drafts, actor);
    } finally {
      clearStage(sqlite);
    }
  });
}

/** The write of writeImport, in its transaction on the connection it holds. */
async function writeStaged(tx: Db, sqlite: Database, plan: ImportPlan, drafts: ImportDraft[], actor: string): Promise<ImportResult> {
  let current = plan;
  if (catalogFingerprint(sqlite, plan.catalogId) !== plan.fingerprint) current = planOn(sqlite, plan.catalogId, drafts, Date.now());
  stage(sqlite, current);
  sqlite.exec(`INSERT INTO tools (${TOOL_COLUMNS.join(", ")}) SELECT ${TOOL_COLUMNS.join(", ")} FROM temp.import_tools`);
  sqlite.exec(`UPDATE tools SET summary = u.summary, description = u.description, input_schema = u.input_schema, tags = u.tags, enabled = u.enabled, updated_at = u.updated_at
      FROM temp.import_updates AS u WHERE tools.id = u.id AND u.managed = 0`);
  sqlite.exec(
    "UPDATE tools SET enabled = u.enabled, tags = u.tags, updated_at = u.updated_at FROM temp.import_updates AS u WHERE tools.id = u.id AND u.managed = 1",
  );
  if (current.audit.length === 0) {
    const { revision } = sqlite.prepare("SELECT revision FROM catalogs WHERE id = ?").get(plan.catalogId) as { revision: number };
    return { ...current.result, revision };
  }
  const revision = await recordChanges(tx, plan.catalogId, actor, []);
  sqlite
    .prepare(
      `INSERT INTO audit_entries (catalog_id, revision, subject_kind, subject, action, actor, before, after)
         SELECT ?, ?, 'tool', subject, 'import', ?, before, after FROM temp.import_audit ORDER BY rowid`,
    )
    .run(plan.catalogId, revision, actor);
  return { ...current.result, revision };
}

/** Plans and writes an import (see planImport and writeImport). */
export async function importDrafts(db: Db, catalogId: string, drafts: ImportDraft[], actor: string): Promise<ImportResult> {
  return writeImport(db, await planImport(db, catalogId, drafts), drafts, actor);
}
