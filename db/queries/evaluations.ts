import "server-only";
import { randomUUID } from "node:crypto";
import { and, count, eq, getTableColumns, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import type { LabelledCase } from "@/lib/evaluation/cases";
import type { EvaluationMiss } from "@/lib/evaluation/run";
import type { Db } from "../client";
import { evaluations } from "../tables";
import type { EvaluationRow } from "../schema";
import { requireCatalog } from "./guards";

/** A case as kept: what was asked, and once the run is done the names chosen for it (the first k). */
export type StoredCase = LabelledCase & { chosen?: string[] };

/** A run as the API gives it in a list: everything but its cases and misses. */
export interface EvaluationSummary {
  id: string;
  catalogId: string;
  revision: number;
  setName: string;
  selector: string;
  k: number;
  status: EvaluationRow["status"];
  progress: { done: number; total: number };
  metrics: Record<string, number> | null;
  error: string | null;
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
}

export interface Evaluation extends EvaluationSummary {
  misses: EvaluationMiss[] | null;
}

function toSummary(row: Omit<EvaluationRow, "cases" | "misses">): EvaluationSummary {
  return {
    id: row.id,
    catalogId: row.catalogId,
    revision: row.revision,
    setName: row.setName,
    selector: row.selector,
    k: row.k,
    status: row.status,
    progress: { done: row.progressDone, total: row.progressTotal },
    metrics: row.metrics ?? null,
    error: row.error ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function createEvaluation(
  db: Db,
  run: { catalogId: string; revision: number; setName: string; selector: string; k: number; cases: StoredCase[]; createdBy: string },
): Promise<Evaluation> {
  await requireCatalog(db, run.catalogId);
  const [row] = await db
    .insert(evaluations)
    .values({ ...run, id: randomUUID(), status: "running", progressTotal: run.cases.length, heartbeatAt: new Date() })
    .returning();
  return { ...toSummary(row), misses: null };
}

/**
 * Marks the run alive now (and, given, its progress), if it is still running: false once it is not
 * (another instance took it for stopped, see failStaleEvaluations), for its runner to give up.
 */
export async function recordEvaluationHeartbeat(db: Db, id: string, progressDone?: number): Promise<boolean> {
  const alive = await db
    .update(evaluations)
    .set({ heartbeatAt: new Date(), ...(progressDone === undefined ? {} : { progressDone }) })
    .where(and(eq(evaluations.id, id), eq(evaluations.status, "running")))
    .returning({ id: evaluations.id });
  return alive.length > 0;
}

/** Only a running run is finished or failed: one already taken for stopped stays as it was told. */
export async function finishEvaluation(
  db: Db,
  id: string,
  outcome: { metrics: Record<string, number>; misses: EvaluationMiss[]; cases: StoredCase[] },
): Promise<void> {
  await db
    .update(evaluations)
    .set({ status: "done", metrics: outcome.metrics, misses: outcome.misses, cases: outcome.cases, progressDone: outcome.cases.length, finishedAt: new Date() })
    .where(and(eq(evaluations.id, id), eq(evaluations.status, "running")));
}

export async function failEvaluation(db: Db, id: string, error: string): Promise<void> {
  await db
    .update(evaluations)
    .set({ status: "failed", error, finishedAt: new Date() })
    .where(and(eq(evaluations.id, id), eq(evaluations.status, "running")));
}

/**
 * Marks a catalog's runs that say "running" but whose heartbeat stopped before `staleBefore` (the
 * instance running them stopped) as failed. A run without a heartbeat dates from before there was one.
 */
export async function failStaleEvaluations(db: Db, catalogId: string, staleBefore: Date): Promise<void> {
  await db
    .update(evaluations)
    .set({ status: "failed", error: "The server running this evaluation stopped before it finished: run it again.", finishedAt: new Date() })
    .where(
      and(
        eq(evaluations.catalogId, catalogId),
        eq(evaluations.status, "running"),
        or(isNull(evaluations.heartbeatAt), lt(evaluations.heartbeatAt, staleBefore)),
      ),
    );
}

export async function countRunningEvaluations(db: Db, catalogId: string): Promise<number> {
  const [{ running }] = await db
    .select({ running: count() })
    .from(evaluations)
    .where(and(eq(evaluations.catalogId, catalogId), eq(evaluations.status, "running")));
  return running;
}

/** One run of the catalog with its misses; 404 for an unknown one or another catalog's. */
export async function getEvaluation(db: Db, catalogId: string, id: string): Promise<Evaluation> {
  const [row] = await db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.id, id), eq(evaluations.catalogId, catalogId)))
    .limit(1);
  if (!row) throw notFound(`Evaluation "${id}"`, "id");
  return { ...toSummary(row), misses: (row.misses as EvaluationMiss[] | null) ?? null };
}

const EVALUATION_PAGE_DEFAULT = 50;

// Newest first by rowid: SQLite gives each new row a rowid above every existing one (PostgreSQL's
// rowid column is an identity, a bigint read as a number).
const rowid = sql<number>`${evaluations}.rowid`.mapWith(Number);

/** A page of a catalog's runs, newest first, optionally of one set only; `cursor` is the previous page's nextCursor. */
export async function pageEvaluations(
  db: Db,
  catalogId: string,
  filter: { setName?: string; limit?: number; cursor?: number } = {},
): Promise<{ evaluations: EvaluationSummary[]; nextCursor: string | null }> {
  await requireCatalog(db, catalogId);
  const limit = filter.limit ?? EVALUATION_PAGE_DEFAULT;
  const conditions: SQL[] = [eq(evaluations.catalogId, catalogId)];
  if (filter.setName !== undefined) conditions.push(eq(evaluations.setName, filter.setName));
  if (filter.cursor !== undefined) conditions.push(sql`${rowid} < ${filter.cursor}`);
  const { cases: _cases, misses: _misses, ...columns } = getTableColumns(evaluations);
  const rows = await db
    .select({ ...columns, position: rowid })
    .from(evaluations)
    .where(and(...conditions))
    .orderBy(sql`${rowid} DESC`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    evaluations: page.map(({ position: _position, ...row }) => toSummary(row)),
    nextCursor: rows.length > limit ? String(page.at(-1)!.position) : null,
  };
}
