import "server-only";
import type { Database } from "better-sqlite3";
import { eq } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import { catalogs } from "../tables";
import type { Tx } from "./audit";

/** Throws the 404 every query about a missing catalog gives. */
export async function requireCatalog(tx: Tx, catalogId: string): Promise<void> {
  if ((await tx.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.id, catalogId)).limit(1)).length === 0) {
    throw notFound(`Catalog "${catalogId}"`, "catalog");
  }
}

/**
 * The state of a catalog's tools, for work planned before the write lock is taken: while this is
 * the same, the plan still holds. Throws the catalog's 404. Reads the raw connection: pass
 * sqliteOf(tx) of the transaction the plan is read in (outside one, it would not wait for another
 * request's transaction on that connection).
 */
export function catalogFingerprint(sqlite: Database, catalogId: string): string {
  const catalog = sqlite.prepare("SELECT revision FROM catalogs WHERE id = ?").get(catalogId) as { revision: number } | undefined;
  if (!catalog) throw notFound(`Catalog "${catalogId}"`, "catalog");
  const tools = sqlite.prepare("SELECT count(*) AS n, max(id) AS id, max(updated_at) AS at FROM tools WHERE catalog_id = ?").get(catalogId) as {
    n: number;
    id: number;
    at: number;
  };
  return `${catalog.revision}:${tools.n}:${tools.id}:${tools.at}`;
}
