import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { deletingTools } from "@/lib/rules/tool-references";
import { BULK_ENTRY_PREFIX, describeBulk, namesInWords, retagged, sameTags, type ToolBulkAction } from "@/lib/tools/bulk";
import { chunksOf } from "../chunks";
import { writeTransaction, type Db } from "../client";
import { tools } from "../tables";
import type { ToolRow } from "../schema";
import { recordManyChanges, type ChangeEntry, type Tx } from "./audit";
import { requireCatalog } from "./guards";
import { rewriteToolReferences, snapshot } from "./tools";

type BulkChangeAction = Exclude<ToolBulkAction, "undo">;

export interface BulkChange {
  action: BulkChangeAction;
  names: string[];
  addTags?: string[];
  removeTags?: string[];
  /** move and copy: the catalog the tools go to. */
  target?: string;
}

/** What a bulk change did: one revision of the catalog (and one of the target's, for move and copy). */
export interface BulkResult {
  action: ToolBulkAction;
  /** One sentence: "Disabled 12 tools". */
  message: string;
  /** The catalog's revision the change made; null when nothing changed there. */
  revision: number | null;
  /** The tools changed (for copy: the copies made in the target). */
  changed: string[];
  /** Named tools already in the state asked for. */
  unchanged: number;
  /** Named tools left as they were, with why (a tool its source owns is not deleted or moved). */
  skipped: { name: string; reason: string }[];
  target?: string;
  targetRevision?: number;
  /** Whether POST …/tools/bulk {action: "undo", revision} can take it back. */
  undoable: boolean;
}

/** What the catalog-level entry summing a bulk change up records: which change, of which tools. */
interface BulkSummary {
  action: BulkChangeAction;
  count: number;
  tools: string[];
  target?: string;
  source?: string;
}

/** The catalog's tools of those names that exist, by name (one statement per 500 names). */
export async function rowsByName(tx: Tx, catalogId: string, names: string[]): Promise<Map<string, ToolRow>> {
  const found = new Map<string, ToolRow>();
  for (const chunk of chunksOf(names)) {
    const rows = await tx
      .select()
      .from(tools)
      .where(and(eq(tools.catalogId, catalogId), inArray(tools.name, chunk)));
    for (const row of rows) found.set(row.name, row);
  }
  return found;
}

/** The named tools of the catalog, in the order named; a name the catalog lacks refuses the whole change. */
async function rowsNamed(tx: Tx, catalogId: string, names: string[]): Promise<ToolRow[]> {
  const unique = [...new Set(names)];
  const found = await rowsByName(tx, catalogId, unique);
  const missing = unique.filter((name) => !found.has(name));
  if (missing.length > 0) throw notFound(`Tool ${namesInWords(missing)} in catalog "${catalogId}"`, "names");
  return unique.map((name) => found.get(name)!);
}

/** Sets columns on the rows, grouped by the value each gets: one statement per group and 500 rows. */
export async function updateGrouped(tx: Tx, rows: ToolRow[], newValue: (row: ToolRow) => Partial<Pick<ToolRow, "enabled" | "tags">>): Promise<void> {
  const groups = new Map<string, { value: Partial<Pick<ToolRow, "enabled" | "tags">>; ids: number[] }>();
  for (const row of rows) {
    const value = newValue(row);
    const key = JSON.stringify(value);
    const group = groups.get(key) ?? { value, ids: [] };
    group.ids.push(row.id);
    groups.set(key, group);
  }
  const now = new Date();
  for (const { value, ids } of groups.values()) {
    for (const chunk of chunksOf(ids))
      await tx
        .update(tools)
        .set({ ...value, updatedAt: now })
        .where(inArray(tools.id, chunk));
  }
}

/** Writes one revision: the summary entry, then an entry per tool changed (and whatever else changed with them). */
async function record(tx: Tx, catalogId: string, actor: string, summary: BulkSummary, action: string, entries: ChangeEntry[]): Promise<number> {
  const head: ChangeEntry = { subjectKind: "catalog", subject: catalogId, action, after: summary };
  return recordManyChanges(tx, catalogId, actor, [head, ...entries]);
}

/** Enables, disables or retags the rows: only those the change alters are written and recorded. */
async function changeState(tx: Tx, catalogId: string, rows: ToolRow[], change: BulkChange, actor: string): Promise<BulkResult> {
  const next = (row: ToolRow): Pick<ToolRow, "enabled" | "tags"> =>
    change.action === "tag"
      ? { enabled: row.enabled, tags: retagged(row.tags, change.addTags ?? [], change.removeTags ?? []) }
      : { enabled: change.action === "enable", tags: row.tags };
  const changing = rows.filter((row) => {
    const value = next(row);
    return value.enabled !== row.enabled || !sameTags(value.tags, row.tags);
  });
  const result = { action: change.action, message: describeBulk(change.action, changing.length), unchanged: rows.length - changing.length, skipped: [] };
  if (changing.length === 0) return { ...result, revision: null, changed: [], undoable: false };
  await updateGrouped(tx, changing, (row) => (change.action === "tag" ? { tags: next(row).tags } : { enabled: next(row).enabled }));
  const action = `${BULK_ENTRY_PREFIX}${change.action}`;
  const entries: ChangeEntry[] = changing.map((row) => ({
    subjectKind: "tool",
    subject: row.name,
    action,
    before: snapshot(row),
    after: snapshot({ ...row, ...next(row) }),
  }));
  const names = changing.map((row) => row.name);
  const revision = await record(tx, catalogId, actor, { action: change.action, count: names.length, tools: names }, action, entries);
  return { ...result, revision, changed: names, undoable: true };
}

const OWNED_BY_SOURCE = (row: ToolRow, verb: string) => ({
  name: row.name,
  reason: `a ${row.source} tool: its source owns it, so it is not ${verb} (disable it instead)`,
});

/** Deletes the custom tools among the rows, with every reference to them, as deleteTool does for one. */
async function removeTools(tx: Tx, catalogId: string, rows: ToolRow[]): Promise<{ entries: ChangeEntry[]; references: ChangeEntry[] }> {
  for (const chunk of chunksOf(rows.map((row) => row.id))) await tx.delete(tools).where(inArray(tools.id, chunk));
  const { entries: references } = await rewriteToolReferences(tx, catalogId, deletingTools(rows.map((row) => row.name)));
  return { entries: rows.map((row) => ({ subjectKind: "tool", subject: row.name, action: "", before: snapshot(row) })), references };
}

async function deleteMany(tx: Tx, catalogId: string, rows: ToolRow[], actor: string): Promise<BulkResult> {
  const custom = rows.filter((row) => row.source === "custom");
  const skipped = rows.filter((row) => row.source !== "custom").map((row) => OWNED_BY_SOURCE(row, "deleted"));
  const result = { action: "delete" as const, message: describeBulk("delete", custom.length), unchanged: 0, skipped };
  if (custom.length === 0) return { ...result, revision: null, changed: [], undoable: false };
  const { entries, references } = await removeTools(tx, catalogId, custom);
  const action = `${BULK_ENTRY_PREFIX}delete`;
  const names = custom.map((row) => row.name);
  const tagged = entries.map((entry) => ({ ...entry, action }));
  const revision = await record(tx, catalogId, actor, { action: "delete", count: names.length, tools: names }, action, [...tagged, ...references]);
  return { ...result, revision, changed: names, undoable: references.length === 0 };
}

/** The row a copy of `row` is in another catalog: a custom tool with its definition, state and tags. */
function copiedRow(row: ToolRow, catalogId: string) {
  const { name, summary, description, inputSchema, enabled, tags, requires } = row;
  return { catalogId, name, source: "custom" as const, summary, description, inputSchema, enabled, tags, requires };
}

/** Refuses a target that is the catalog itself or that has tools of the names the copies would take. */
async function checkTarget(tx: Tx, catalogId: string, target: string, names: string[]): Promise<void> {
  if (target === catalogId) throw new ToolshedError("bad_request", `The tools are in catalog "${target}" already: name another catalog.`, "target");
  await requireCatalog(tx, target);
  const taken: string[] = [];
  for (const chunk of chunksOf(names)) {
    const rows = await tx
      .select({ name: tools.name })
      .from(tools)
      .where(and(eq(tools.catalogId, target), inArray(tools.name, chunk)));
    taken.push(...rows.map((row) => row.name));
  }
  if (taken.length > 0) {
    throw new ToolshedError(
      "conflict",
      `Catalog "${target}" has tools named ${namesInWords(taken)} already: rename or delete them there first. Nothing was changed.`,
      "target",
    );
  }
}

/** Copies the rows to the target catalog as custom tools (move: the custom ones, then deletes them here), one revision in each. */
async function copyOrMove(tx: Tx, catalogId: string, rows: ToolRow[], change: BulkChange, actor: string): Promise<BulkResult> {
  const target = change.target!;
  const moving = change.action === "move";
  const going = moving ? rows.filter((row) => row.source === "custom") : rows;
  const skipped = moving ? rows.filter((row) => row.source !== "custom").map((row) => OWNED_BY_SOURCE(row, "moved")) : [];
  const names = going.map((row) => row.name);
  const result = { action: change.action, message: describeBulk(change.action, going.length, target), unchanged: 0, skipped, target, undoable: false };
  if (going.length === 0) return { ...result, revision: null, changed: [] };
  await checkTarget(tx, catalogId, target, names);
  const inserted: ToolRow[] = [];
  for (const chunk of chunksOf(going))
    inserted.push(
      ...(await tx
        .insert(tools)
        .values(chunk.map((row) => copiedRow(row, target)))
        .returning()),
    );
  const arrived = `${BULK_ENTRY_PREFIX}${change.action} from ${catalogId}`;
  const summary = { action: change.action, count: names.length, tools: names };
  const created: ChangeEntry[] = inserted.map((row) => ({ subjectKind: "tool", subject: row.name, action: arrived, after: snapshot(row) }));
  const targetRevision = await record(tx, target, actor, { ...summary, source: catalogId }, arrived, created);
  if (!moving) return { ...result, revision: null, changed: names, targetRevision };
  const { entries, references } = await removeTools(tx, catalogId, going);
  const left = `${BULK_ENTRY_PREFIX}move to ${target}`;
  const revision = await record(tx, catalogId, actor, { ...summary, target }, left, [...entries.map((entry) => ({ ...entry, action: left })), ...references]);
  return { ...result, revision, changed: names, targetRevision };
}

/**
 * Enables, disables, retags, deletes, moves or copies the named tools of a catalog in one
 * transaction and one revision (move and copy: one of the target's too), audited as one change: a
 * catalog entry naming the action, the count and the tools, then an entry per tool. A name the
 * catalog lacks refuses the whole change; a tool its source owns is not deleted or moved, and the
 * answer says so.
 */
export function bulkChangeTools(db: Db, catalogId: string, change: BulkChange, actor: string): Promise<BulkResult> {
  return writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    const rows = await rowsNamed(tx, catalogId, change.names);
    if (change.action === "delete") return deleteMany(tx, catalogId, rows, actor);
    if (change.action === "move" || change.action === "copy") return copyOrMove(tx, catalogId, rows, change, actor);
    return changeState(tx, catalogId, rows, change, actor);
  });
}
