import "server-only";
import { and, eq, lte, or } from "drizzle-orm";
import type { Db } from "../client";
import { leases } from "../tables";

/**
 * Takes the lease `name` for `holder` until `ttlMs` after `now`, or renews it when `holder` has it
 * already: true when `holder` holds it now. One statement, atomic on either database: the row is
 * written only when there is none, it is the holder's, or it has expired; under PostgreSQL's READ
 * COMMITTED a second instance taking it at the same moment waits for the first's row and then
 * finds it held. `now` is the instance's clock: the instances' clocks must agree to well within
 * the lease's margin.
 */
export async function takeLease(db: Db, name: string, holder: string, ttlMs: number, now = new Date()): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const taken = await db
    .insert(leases)
    .values({ name, holder, expiresAt })
    .onConflictDoUpdate({
      target: leases.name,
      set: { holder, expiresAt },
      setWhere: or(eq(leases.holder, holder), lte(leases.expiresAt, now)),
    })
    .returning({ holder: leases.holder });
  return taken.length > 0;
}

/** Gives the lease up, if `holder` has it: another may take it at once instead of when it expires. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.delete(leases).where(and(eq(leases.name, name), eq(leases.holder, holder)));
}
