import { and, eq, inArray } from "drizzle-orm";
import { SOURCE_REDEFINE_ACTION, type InputSchema, type ToolSource } from "@/lib/tools/types";
import type { FieldError } from "@/lib/tools/validate";
import { writeTransaction, type Db } from "../client";
import { tools, type ToolRow } from "../schema";
import { recordChanges, type ChangeEntry } from "./audit";
import { requireCatalog } from "./guards";

/** A tool as a source (MCP server, plugin, skill) provides it. */
export interface SourceToolDraft {
  name: string;
  summary: string;
  description: string;
  inputSchema: InputSchema;
  tags: string[];
  meta?: { mcpName?: string };
}

export interface SourceSyncResult {
  added: string[];
  updated: string[];
  unregistered: string[];
  /** Names another source already uses in this catalog: those tools are not taken over. */
  conflicts: FieldError[];
}

type SourceDefinition = Pick<ToolRow, "summary" | "description" | "inputSchema" | "tags" | "meta" | "registered">;

/** A tool as its source defines it, as audit entries record it before and after a sync. */
const definitionOf = (row: SourceDefinition): SourceDefinition => ({
  summary: row.summary,
  description: row.description,
  inputSchema: row.inputSchema,
  tags: row.tags,
  meta: row.meta ?? null,
  registered: row.registered,
});

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What only the source decides; tags and registration also change for other reasons (a person, a server going away). */
const SOURCE_DEFINED_FIELDS = ["summary", "description", "inputSchema", "meta"] as const;

/** What a sync that rewrites a listed tool records: a redefinition, or only a change of tags or registration. */
function updateAction(before: SourceDefinition, after: SourceDefinition): string {
  if (SOURCE_DEFINED_FIELDS.some((field) => !sameJson(before[field], after[field]))) return SOURCE_REDEFINE_ACTION;
  return before.registered ? "update" : "register";
}

/**
 * Makes the catalog's tools from one source exactly what it lists now: new tools are added
 * (enabled), listed ones updated and registered again, the ones it no longer lists kept with their
 * history but unregistered. Enabled state stays the catalog's choice. One revision for the lot.
 */
export function syncSourceTools(
  db: Db,
  catalogId: string,
  source: Extract<ToolSource, "mcp" | "plugin" | "skill">,
  sourceRef: string,
  drafts: SourceToolDraft[],
  actor: string,
): SourceSyncResult {
  return writeTransaction(db, (tx) => {
    requireCatalog(tx, catalogId);
    const result: SourceSyncResult = { added: [], updated: [], unregistered: [], conflicts: [] };
    const entries: ChangeEntry[] = [];
    const named = drafts.length ? tx.select().from(tools).where(and(eq(tools.catalogId, catalogId), inArray(tools.name, drafts.map((draft) => draft.name)))).all() : [];
    const byName = new Map(named.map((row) => [row.name, row]));
    for (const draft of drafts) {
      const row = byName.get(draft.name);
      const values = { summary: draft.summary, description: draft.description, inputSchema: draft.inputSchema, tags: draft.tags, meta: draft.meta ?? null, registered: true };
      if (!row) {
        tx.insert(tools).values({ ...values, name: draft.name, catalogId, source, sourceRef }).run();
        result.added.push(draft.name);
        entries.push({ subjectKind: "tool", subject: draft.name, action: "register", after: { source, sourceRef, ...values } });
      } else if (row.source !== source || row.sourceRef !== sourceRef) {
        result.conflicts.push({ field: draft.name, message: `"${draft.name}" already exists in this catalog as a ${row.source} tool; this one is left out.` });
      } else if (!sameJson(definitionOf(row), definitionOf(values))) {
        tx.update(tools).set({ ...values, updatedAt: new Date() }).where(eq(tools.id, row.id)).run();
        result.updated.push(draft.name);
        const [before, after] = [definitionOf(row), definitionOf(values)];
        entries.push({ subjectKind: "tool", subject: draft.name, action: updateAction(before, after), before, after });
      }
    }
    const listed = new Set(drafts.map((draft) => draft.name));
    const gone = tx
      .select()
      .from(tools)
      .where(and(eq(tools.catalogId, catalogId), eq(tools.source, source), eq(tools.sourceRef, sourceRef), eq(tools.registered, true)))
      .all()
      .filter((row) => !listed.has(row.name));
    for (const row of gone) {
      tx.update(tools).set({ registered: false, updatedAt: new Date() }).where(eq(tools.id, row.id)).run();
      result.unregistered.push(row.name);
      entries.push({ subjectKind: "tool", subject: row.name, action: "unregister", before: { registered: true }, after: { registered: false } });
    }
    if (entries.length > 0) recordChanges(tx, catalogId, actor, entries);
    return result;
  });
}

/** Takes every tool of one source out of "registered" (its server is gone); returns their names. */
export function unregisterSourceTools(db: Db, catalogId: string, source: ToolSource, sourceRef: string, actor: string, reason: string): string[] {
  return writeTransaction(db, (tx) => {
    const rows = tx
      .select()
      .from(tools)
      .where(and(eq(tools.catalogId, catalogId), eq(tools.source, source), eq(tools.sourceRef, sourceRef), eq(tools.registered, true)))
      .all();
    for (const row of rows) tx.update(tools).set({ registered: false, updatedAt: new Date() }).where(eq(tools.id, row.id)).run();
    if (rows.length > 0) {
      recordChanges(
        tx,
        catalogId,
        actor,
        rows.map((row) => ({ subjectKind: "tool" as const, subject: row.name, action: "unregister", before: { registered: true }, after: { registered: false, reason } })),
      );
    }
    return rows.map((row) => row.name);
  });
}

/** Deletes every tool of one source (the source itself was removed); their audit history stays. */
export function deleteSourceTools(db: Db, catalogId: string, source: ToolSource, sourceRef: string, actor: string): string[] {
  return writeTransaction(db, (tx) => {
    const rows = tx.select().from(tools).where(and(eq(tools.catalogId, catalogId), eq(tools.source, source), eq(tools.sourceRef, sourceRef))).all();
    if (rows.length === 0) return [];
    tx.delete(tools).where(inArray(tools.id, rows.map((row) => row.id))).run();
    recordChanges(tx, catalogId, actor, rows.map((row) => ({ subjectKind: "tool" as const, subject: row.name, action: "delete", before: { source, sourceRef } })));
    return rows.map((row) => row.name);
  });
}

/** The source refs a catalog has tools from, for one source kind. */
export function sourceRefsOf(db: Db, catalogId: string, source: ToolSource): string[] {
  const rows = db.selectDistinct({ ref: tools.sourceRef }).from(tools).where(and(eq(tools.catalogId, catalogId), eq(tools.source, source))).all();
  return rows.flatMap((row) => (row.ref ? [row.ref] : []));
}
