import "server-only";
import { and, eq } from "drizzle-orm";
import { ToolshedError } from "@/lib/errors";
import { BULK_ENTRY_PREFIX, namesInWords, sameTags, toolCount } from "@/lib/tools/bulk";
import type { Tool } from "@/lib/tools/types";
import { chunksOf } from "../chunks";
import { writeTransaction, type Db } from "../client";
import { auditEntries, tools } from "../tables";
import type { AuditRow, ToolRow } from "../schema";
import { recordManyChanges, type ChangeEntry, type Tx } from "./audit";
import { requireCatalog } from "./guards";
import { type BulkResult, rowsByName, updateGrouped } from "./tool-bulk";
import { snapshot } from "./tools";

type Snapshot = Pick<Tool, "name" | "summary" | "description" | "inputSchema" | "enabled" | "tags" | "requires">;

/** The entries of the revision: its bulk summary and the rest; refuses a revision that is no bulk change of the catalog. */
async function bulkRevision(tx: Tx, catalogId: string, revision: number): Promise<{ action: string; entries: AuditRow[] }> {
  const entries = await tx
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.catalogId, catalogId), eq(auditEntries.revision, revision)));
  const head = entries.find((entry) => entry.subjectKind === "catalog" && entry.action.startsWith(BULK_ENTRY_PREFIX));
  if (!head)
    throw new ToolshedError("bad_request", `Revision ${revision} of catalog "${catalogId}" is not a bulk change of its tools: nothing to undo.`, "revision");
  const action = (head.after as { action?: string } | null)?.action ?? "";
  return { action, entries: entries.filter((entry) => entry !== head) };
}

/** Puts back the enabled state and tags the entries' `before` recorded, when every tool still has what their `after` did. */
async function undoState(tx: Tx, catalogId: string, entries: AuditRow[]): Promise<ChangeEntry[]> {
  const rows = await rowsByName(
    tx,
    catalogId,
    entries.map((entry) => entry.subject),
  );
  const moved = entries.filter((entry) => {
    const row = rows.get(entry.subject);
    const after = entry.after as Snapshot;
    return !row || row.enabled !== after.enabled || !sameTags(row.tags, after.tags);
  });
  if (moved.length > 0) {
    throw new ToolshedError(
      "conflict",
      `Cannot undo: ${namesInWords(moved.map((entry) => entry.subject))} changed since (or are gone). Change them by hand. Nothing was changed.`,
      "revision",
    );
  }
  const before = new Map(entries.map((entry) => [entry.subject, entry.before as Snapshot]));
  const restored = (row: ToolRow) => ({ enabled: before.get(row.name)!.enabled, tags: before.get(row.name)!.tags });
  const changing = [...rows.values()];
  await updateGrouped(tx, changing, restored);
  return changing.map((row) => ({ subjectKind: "tool", subject: row.name, action: "", before: snapshot(row), after: snapshot({ ...row, ...restored(row) }) }));
}

/** Makes the deleted custom tools again from what their entries recorded, when no tool has taken their names since. */
async function undoDelete(tx: Tx, catalogId: string, entries: AuditRow[]): Promise<ChangeEntry[]> {
  if (entries.some((entry) => entry.subjectKind !== "tool")) {
    throw new ToolshedError(
      "bad_request",
      "Cannot undo: that delete also took the tools out of agents or rules. Restore the tools and those from their history instead.",
      "revision",
    );
  }
  const taken = await rowsByName(
    tx,
    catalogId,
    entries.map((entry) => entry.subject),
  );
  if (taken.size > 0)
    throw new ToolshedError("conflict", `Cannot undo: tools named ${namesInWords([...taken.keys()])} exist again. Nothing was changed.`, "revision");
  const changes: ChangeEntry[] = [];
  for (const chunk of chunksOf(entries)) {
    const values = chunk.map((entry) => {
      const { name, summary, description, inputSchema, enabled, tags, requires } = entry.before as Snapshot;
      return { catalogId, name, source: "custom" as const, summary, description, inputSchema, enabled, tags, requires };
    });
    const rows = await tx.insert(tools).values(values).returning();
    changes.push(...rows.map((row): ChangeEntry => ({ subjectKind: "tool", subject: row.name, action: "", after: snapshot(row) })));
  }
  return changes;
}

/**
 * Takes back the bulk change that made `revision` (enable, disable, tag or delete), in one new
 * revision audited like the change itself. Refused when a tool changed since, when a deleted name
 * is taken again, or for a move or copy (delete the copies, or move them back, instead).
 */
export function undoBulkChange(db: Db, catalogId: string, revision: number, actor: string): Promise<BulkResult> {
  return writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    const { action, entries } = await bulkRevision(tx, catalogId, revision);
    if (action !== "enable" && action !== "disable" && action !== "tag" && action !== "delete") {
      throw new ToolshedError("bad_request", `Revision ${revision} was a bulk ${action}: move the tools back, or delete the copies, instead.`, "revision");
    }
    const changes = action === "delete" ? await undoDelete(tx, catalogId, entries) : await undoState(tx, catalogId, entries);
    const entryAction = `undo ${BULK_ENTRY_PREFIX}${action} (revision ${revision})`;
    const names = changes.map((change) => change.subject);
    const head: ChangeEntry = {
      subjectKind: "catalog",
      subject: catalogId,
      action: entryAction,
      after: { undid: revision, count: names.length, tools: names },
    };
    const made = await recordManyChanges(tx, catalogId, actor, [head, ...changes.map((change) => ({ ...change, action: entryAction }))]);
    return {
      action: "undo",
      message: `Undid the bulk ${action} of ${toolCount(names.length)}`,
      revision: made,
      changed: names,
      unchanged: 0,
      skipped: [],
      undoable: false,
    };
  });
}
