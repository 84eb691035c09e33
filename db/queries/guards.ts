import "server-only";
import { count, eq, max } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import { catalogs, tools } from "../tables";
import type { Tx } from "./audit";

/** Throws the 404 every query about a missing catalog gives. */
export async function requireCatalog(tx: Tx, catalogId: string): Promise<void> {
  if ((await tx.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.id, catalogId)).limit(1)).length === 0) {
    throw notFound(`Catalog "${catalogId}"`, "catalog");
  }
}

/**
 * The state of a catalog's tools, for work planned before the write lock is taken: while this is
 * the same, the plan still holds. Throws the catalog's 404. Read it before what the plan reads (a
 * change landing in between then only makes the plan look stale), and again inside the write
 * transaction that carries the plan out.
 */
export async function catalogFingerprint(tx: Tx, catalogId: string): Promise<string> {
  const [catalog] = await tx.select({ revision: catalogs.revision }).from(catalogs).where(eq(catalogs.id, catalogId));
  if (!catalog) throw notFound(`Catalog "${catalogId}"`, "catalog");
  const [state] = await tx
    .select({ n: count(), id: max(tools.id), at: max(tools.updatedAt) })
    .from(tools)
    .where(eq(tools.catalogId, catalogId));
  return `${catalog.revision}:${state.n}:${state.id}:${state.at?.getTime()}`;
}
