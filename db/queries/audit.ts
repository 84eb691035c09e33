import { isDeepStrictEqual } from "node:util";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { auditEntries, catalogs } from "../schema";

/** A transaction handle or the database itself: queries run the same on both. */
export type Tx = Pick<Db, "select" | "insert" | "update" | "delete">;

export interface ChangeEntry {
  subjectKind: "catalog" | "tool" | "model-rule" | "provider" | "agent" | "override" | "setting";
  subject: string;
  action: string;
  before?: unknown;
  after?: unknown;
}

const AUDIT_INSERT_CHUNK = 500;

/** Whether two values are the same as stored (JSON: key order and undefined properties aside): such a save changes nothing. */
export function isUnchanged(before: unknown, after: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(before ?? null)), JSON.parse(JSON.stringify(after ?? null)));
}

/**
 * Bumps the catalog's revision once and writes an audit entry per change, inside the
 * caller's transaction, so a change and its record land together or not at all.
 */
export function recordChanges(tx: Tx, catalogId: string, actor: string, entries: ChangeEntry[]): number {
  const [{ revision }] = tx
    .update(catalogs)
    .set({ revision: sql`${catalogs.revision} + 1`, updatedAt: new Date() })
    .where(eq(catalogs.id, catalogId))
    .returning({ revision: catalogs.revision })
    .all();
  // In chunks: one statement binds at most 32,766 values (8 per entry), and thousands of entries are ordinary.
  for (let start = 0; start < entries.length; start += AUDIT_INSERT_CHUNK) {
    tx.insert(auditEntries)
      .values(entries.slice(start, start + AUDIT_INSERT_CHUNK).map((entry) => ({ ...entry, before: entry.before ?? null, after: entry.after ?? null, catalogId, revision, actor })))
      .run();
  }
  return revision;
}

export function listAudit(db: Db, catalogId: string, filter: { subjectKind?: string; subject?: string; limit?: number } = {}) {
  const conditions = [eq(auditEntries.catalogId, catalogId)];
  if (filter.subjectKind) conditions.push(eq(auditEntries.subjectKind, filter.subjectKind));
  if (filter.subject) conditions.push(eq(auditEntries.subject, filter.subject));
  return db
    .select()
    .from(auditEntries)
    .where(and(...conditions))
    .orderBy(desc(auditEntries.id))
    .limit(filter.limit ?? 200)
    .all();
}
