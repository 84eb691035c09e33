import "server-only";
import { eq } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import { type Db, readTransaction } from "../client";
import { catalogs } from "../tables";
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

/**
 * The catalog's current version, in one indexed read of one row: what a cached state is checked
 * against before it is reused. A missing catalog is the usual 404.
 */
export async function catalogVersion(db: Db, catalogId: string): Promise<string> {
  const [row] = await db
    .select({ revision: catalogs.revision, updatedAt: catalogs.updatedAt, createdAt: catalogs.createdAt })
    .from(catalogs)
    .where(eq(catalogs.id, catalogId));
  if (!row) throw notFound(`Catalog "${catalogId}"`, "catalog");
  return versionOf(row);
}

/** Everything the pipeline reads about one catalog, read in one transaction so it is consistent, with its version. */
export async function loadCatalogState(db: Db, catalogId: string): Promise<CatalogState & { revision: number; version: string }> {
  return readTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ revision: catalogs.revision, updatedAt: catalogs.updatedAt, createdAt: catalogs.createdAt })
      .from(catalogs)
      .where(eq(catalogs.id, catalogId));
    if (!row) throw notFound(`Catalog "${catalogId}"`, "catalog");
    return {
      catalogId,
      revision: row.revision,
      version: versionOf(row),
      tools: await listTools(tx, catalogId),
      rules: await getRules(tx, catalogId),
      agents: await listAgents(tx, catalogId),
    };
  });
}
