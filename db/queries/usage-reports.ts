import "server-only";
import { and, asc, desc, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../client";
import { usageReports } from "../tables";
import { readSetting, writeSetting } from "./settings";

export type NewUsageReport = Omit<typeof usageReports.$inferInsert, "id">;
export type UsageReportRow = typeof usageReports.$inferSelect;

/** Rows per insert statement: under SQLite's bound-parameter limit at 7 columns a row. */
const INSERT_CHUNK = 500;

/** Stores reports; one whose dedupe key the catalog already has is left out. Returns how many were new. */
export async function insertUsageReports(db: Db, reports: readonly NewUsageReport[]): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < reports.length; start += INSERT_CHUNK) {
    const rows = await db
      .insert(usageReports)
      .values(reports.slice(start, start + INSERT_CHUNK))
      .onConflictDoNothing()
      .returning({ id: usageReports.id });
    inserted += rows.length;
  }
  return inserted;
}

/** A catalog's reports after `afterId`, in id order: how an instance catches up with what others stored. */
export function usageReportsAfter(db: Db, catalogId: string, afterId: number, limit: number): Promise<UsageReportRow[]> {
  return db
    .select()
    .from(usageReports)
    .where(and(eq(usageReports.catalogId, catalogId), gt(usageReports.id, afterId)))
    .orderBy(asc(usageReports.id))
    .limit(limit);
}

/** The id just before a catalog's newest `keep` reports (0 when it has no more): where reading only the newest starts. */
export async function idBeforeNewest(db: Db, catalogId: string, keep: number): Promise<number> {
  const rows = await db
    .select({ id: usageReports.id })
    .from(usageReports)
    .where(eq(usageReports.catalogId, catalogId))
    .orderBy(desc(usageReports.id))
    .limit(1)
    .offset(keep);
  return rows[0]?.id ?? 0;
}

export async function deleteUsageReports(db: Db, catalogId: string): Promise<number> {
  return (await db.delete(usageReports).where(eq(usageReports.catalogId, catalogId)).returning({ id: usageReports.id })).length;
}

/** Retention: reports older than `before` are gone (they weighed little by then). */
export async function deleteUsageReportsBefore(db: Db, before: Date): Promise<number> {
  return (await db.delete(usageReports).where(lt(usageReports.createdAt, before)).returning({ id: usageReports.id })).length;
}

/**
 * A tool's reports follow its rename (in the rename's transaction), and a new generation makes
 * every instance read them again under the new name.
 */
export async function renameToolInUsageReports(tx: Db, catalogId: string, from: string, to: string): Promise<void> {
  const moved = await tx
    .update(usageReports)
    .set({ tool: to })
    .where(and(eq(usageReports.catalogId, catalogId), eq(usageReports.tool, from)))
    .returning({ id: usageReports.id });
  if (moved.length === 0) return;
  const setting = await readLearningSetting(tx, catalogId);
  await writeLearningSetting(tx, catalogId, { ...setting, generation: setting.generation + 1 });
}

/** A catalog's learning switch, and its generation: a reset starts a new one, which every instance sees. */
export interface LearningSetting {
  enabled: boolean;
  generation: number;
}

const settingKey = (catalogId: string) => `learning:${catalogId}`;

export async function readLearningSetting(db: Db, catalogId: string): Promise<LearningSetting> {
  return (await readSetting<LearningSetting>(db, settingKey(catalogId))) ?? { enabled: true, generation: 0 };
}

export function writeLearningSetting(db: Db, catalogId: string, setting: LearningSetting): Promise<void> {
  return writeSetting(db, settingKey(catalogId), setting);
}
