import "server-only";
import { and, asc, eq, gt, lte } from "drizzle-orm";
import type { Db } from "../client";
import { auditEntries } from "../tables";

/** One change to a catalog, as replay lists it. */
export interface CatalogChange {
  revision: number;
  subjectKind: string;
  subject: string;
  action: string;
  actor: string;
  createdAt: string;
}

/**
 * The catalog's audit entries after revision `since` (exclusive) and up to `until` (inclusive, when
 * given), oldest first: what changed between a recorded decision and now.
 */
export async function listAuditBetween(db: Db, catalogId: string, since: number, until?: number, limit = 500): Promise<CatalogChange[]> {
  const conditions = [eq(auditEntries.catalogId, catalogId), gt(auditEntries.revision, since)];
  if (until !== undefined) conditions.push(lte(auditEntries.revision, until));
  const rows = await db
    .select({
      revision: auditEntries.revision,
      subjectKind: auditEntries.subjectKind,
      subject: auditEntries.subject,
      action: auditEntries.action,
      actor: auditEntries.actor,
      createdAt: auditEntries.createdAt,
    })
    .from(auditEntries)
    .where(and(...conditions))
    .orderBy(asc(auditEntries.revision), asc(auditEntries.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
