import "server-only";
import { eq, sql } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import type { Db } from "../client";
import { catalogs } from "../schema";
import { listAgents } from "./agents";
import { getRules } from "./rules";
import { listTools } from "./tools";

/**
 * What identifies one state of a catalog: its revision, which every change bumps together with
 * `updatedAt` (db/queries/audit.ts), and its creation time, so a catalog deleted and created again
 * under the same id does not pass for the old one.
 */
function versionOf(row: { revision: number; updatedAt: Date; createdAt: Date }): string {
  return `${row.revision}/${row.updatedAt.getTime()}/${row.createdAt.getTime()}`;
}

function versionQuery(db: Db) {
  return db
    .select({ revision: catalogs.revision, updatedAt: catalogs.updatedAt, createdAt: catalogs.createdAt })
    .from(catalogs)
    .where(eq(catalogs.id, sql.placeholder("id")))
    .prepare();
}

const versionQueries = new WeakMap<Db, ReturnType<typeof versionQuery>>();

/**
 * The catalog's current version, in one indexed read of one row (a prepared statement per
 * database): what a cached state is checked against before it is reused. A missing catalog is
 * the usual 404.
 */
export function catalogVersion(db: Db, catalogId: string): string {
  let query = versionQueries.get(db);
  if (query === undefined) {
    query = versionQuery(db);
    versionQueries.set(db, query);
  }
  const row = query.get({ id: catalogId });
  if (!row) throw notFound(`Catalog "${catalogId}"`, "catalog");
  return versionOf(row);
}

/** Everything the pipeline reads about one catalog, read in one transaction so it is consistent, with its version. */
export function loadCatalogState(db: Db, catalogId: string): CatalogState & { revision: number; version: string } {
  return db.transaction((tx) => {
    const txDb = tx as unknown as Db;
    const row = tx
      .select({ revision: catalogs.revision, updatedAt: catalogs.updatedAt, createdAt: catalogs.createdAt })
      .from(catalogs)
      .where(eq(catalogs.id, catalogId))
      .get();
    if (!row) throw notFound(`Catalog "${catalogId}"`, "catalog");
    return {
      catalogId,
      revision: row.revision,
      version: versionOf(row),
      tools: listTools(txDb, catalogId),
      rules: getRules(txDb, catalogId),
      agents: listAgents(tx, catalogId),
    };
  });
}
