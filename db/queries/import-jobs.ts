import "server-only";
import { and, eq, isNotNull, lt } from "drizzle-orm";
import type { Db } from "../client";
import type { ImportJobRow } from "../schema";
import { importJobs } from "../tables";

/** Writes a job as it is now: the first save creates its row, later ones replace it. */
export async function saveImportJob(db: Db, job: ImportJobRow): Promise<void> {
  const { id, ...state } = job;
  await db.insert(importJobs).values(job).onConflictDoUpdate({ target: importJobs.id, set: state });
}

export async function findImportJob(db: Db, id: string): Promise<ImportJobRow | undefined> {
  const [row] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  return row;
}

/** Forgets the jobs that finished before `finishedBefore`. */
export async function deleteImportJobsFinishedBefore(db: Db, finishedBefore: Date): Promise<void> {
  await db.delete(importJobs).where(and(isNotNull(importJobs.finishedAt), lt(importJobs.finishedAt, finishedBefore)));
}
