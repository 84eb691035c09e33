import "server-only";
import { log } from "@/lib/observability/log";
import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { releaseLease, takeLease } from "@/db/queries/leases";

const shared = globalThis as unknown as { toolshedInstanceId?: string };
/** This process among the instances sharing the database: random, so a restarted process is a new holder. */
shared.toolshedInstanceId ??= randomUUID();
const instanceId: string = shared.toolshedInstanceId;

/** The least a lease outlasts its interval by: a round that starts late by up to this keeps it. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Whether this instance runs this round of a task that runs once across the instances sharing the
 * database (the periodic MCP sync, the decision-log cleanup): it takes the task's lease, or renews
 * it, for a little over one interval. So the holder keeps it round after round, and an instance
 * that stops hands it over to the next that asks once it expires. A database that cannot be
 * reached runs no round (logged).
 */
export async function runsThisRound(db: Db, lease: string, intervalMs: number): Promise<boolean> {
  try {
    return await takeLease(db, lease, instanceId, intervalMs + Math.max(intervalMs / 10, LEASE_MARGIN_MS));
  } catch (error) {
    log.warn({ err: error }, `Could not take the lease "${lease}":`);
    return false;
  }
}

/** Gives the task's lease up if this instance has it (it stops running the task): another takes it at its next round. */
export async function giveUpLease(db: Db, lease: string): Promise<void> {
  try {
    await releaseLease(db, lease, instanceId);
  } catch (error) {
    log.warn({ err: error }, `Could not release the lease "${lease}":`);
  }
}
