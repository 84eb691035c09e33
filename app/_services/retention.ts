import "server-only";
import { log } from "@/lib/observability/log";
import type { Db } from "@/db/client";
import { deleteOldToolDeletions } from "@/db/queries/catalog-state";
import { listCatalogs } from "@/db/queries/catalogs";
import { deleteOldDecisions, retentionBoundary } from "@/db/queries/decisions";
import { deleteUsageReportsBefore } from "@/db/queries/usage-reports";
import { deleteUsageBefore } from "@/db/queries/usage-rollups";
import { LEARNED_RETENTION_MS } from "@/lib/selection/learned";
import { USAGE_WINDOWS } from "@/lib/usage/usage-stats";
import { giveUpLease, runsThisRound } from "./leases";

/** How long and how many decisions are kept, and how often the cleanup runs. 0 turns a rule off. */
export interface RetentionSettings {
  /** Decisions older than this many days are deleted (TOOLSHED_DECISION_RETENTION_DAYS, default 30). */
  days: number;
  /** Each catalog keeps at most its newest this many decisions (TOOLSHED_DECISION_RETENTION_ROWS, default 100,000). */
  rowsPerCatalog: number;
  /** Time between cleanups (TOOLSHED_DECISION_CLEANUP_INTERVAL_MS, default one hour). */
  intervalMs: number;
}

export const DEFAULT_RETENTION: RetentionSettings = { days: 30, rowsPerCatalog: 100_000, intervalMs: 60 * 60 * 1000 };

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/**
 * Rows deleted per statement: each write stays short (decisions logged before they referred to
 * their conversation can be a megabyte each), and other work runs between them.
 */
const DELETE_BATCH = 200;
/** The first cleanup runs this long after start, out of start-up's way. */
const FIRST_RUN_DELAY_MS = 30_000;

function setting(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (Number.isFinite(value) && value >= 0) return value;
  log.warn(`${name}=${JSON.stringify(raw)} is not a number of 0 or more: using ${fallback}.`);
  return fallback;
}

export function retentionFromEnv(env: Record<string, string | undefined> = process.env): RetentionSettings {
  return {
    days: setting(env, "TOOLSHED_DECISION_RETENTION_DAYS", DEFAULT_RETENTION.days),
    rowsPerCatalog: Math.floor(setting(env, "TOOLSHED_DECISION_RETENTION_ROWS", DEFAULT_RETENTION.rowsPerCatalog)),
    intervalMs: setting(env, "TOOLSHED_DECISION_CLEANUP_INTERVAL_MS", DEFAULT_RETENTION.intervalMs),
  };
}

const yieldToOtherWork = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes the decisions the settings no longer keep, catalog by catalog, in small batches with
 * other work let through between them, the usage rollups older than the longest usage window
 * and a day, the reports of use that have aged out of learning, and the tool deletions no catalog
 * state still catches up with. Returns how many decisions it deleted.
 */
export async function cleanupDecisions(db: Db, settings: Pick<RetentionSettings, "days" | "rowsPerCatalog">, now = Date.now()): Promise<number> {
  let deleted = 0;
  for (const catalog of await listCatalogs(db)) {
    const rule = {
      before: settings.days > 0 ? now - settings.days * DAY_MS : undefined,
      boundary: settings.rowsPerCatalog > 0 ? await retentionBoundary(db, catalog.id, settings.rowsPerCatalog) : undefined,
    };
    for (;;) {
      const batch = await deleteOldDecisions(db, catalog.id, rule, DELETE_BATCH);
      deleted += batch;
      if (batch < DELETE_BATCH) break;
      await yieldToOtherWork();
    }
  }
  // The usage rollups outlive the decisions, but not the Usage page's longest window.
  await deleteUsageBefore(db, new Date(now - (USAGE_WINDOWS["30d"] + 24) * HOUR_MS));
  await deleteUsageReportsBefore(db, new Date(now - LEARNED_RETENTION_MS));
  await deleteOldToolDeletions(db, now);
  return deleted;
}

/** The lease of the cleanup: across the instances sharing the database, its holder runs it. */
export const DECISION_CLEANUP_LEASE = "decision-cleanup";

/**
 * Runs the cleanup now and then, in the instance that holds its lease (one across the instances
 * sharing the database, never two rounds at once); returns a function that stops it and gives the
 * lease up.
 */
export function startDecisionCleanup(db: Db, settings: RetentionSettings = retentionFromEnv()): () => void {
  if (settings.intervalMs <= 0 || (settings.days <= 0 && settings.rowsPerCatalog <= 0)) return () => {};
  let running = false;
  const run = async () => {
    // Renewed even while the last round still runs: no other instance starts one beside it.
    if (!(await runsThisRound(db, DECISION_CLEANUP_LEASE, settings.intervalMs)) || running) return;
    running = true;
    try {
      const deleted = await cleanupDecisions(db, settings);
      if (deleted > 0) log.info(`Decision log: deleted ${deleted} decision${deleted === 1 ? "" : "s"} past retention.`);
    } catch (error) {
      log.error({ err: error }, "Cleaning up the decision log failed:");
    } finally {
      running = false;
    }
  };
  const first = setTimeout(run, Math.min(FIRST_RUN_DELAY_MS, settings.intervalMs));
  const every = setInterval(run, settings.intervalMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
    void giveUpLease(db, DECISION_CLEANUP_LEASE);
  };
}
