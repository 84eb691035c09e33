import "server-only";
import { announceCatalogChange, type CatalogChangeListener, listenForCatalogChanges } from "@/db/catalog-changes";
import { getDb, type Db } from "@/db/client";
import type { Access } from "@/lib/auth/policy";
import { log } from "@/lib/observability/log";
import { catalogCorpus } from "@/lib/selection/candidates";
import { corpusIndex } from "@/lib/selection/local-selector";
import { catalogRoute, type RouteContext, type RouteOptions } from "./access";
import { catalogState } from "./catalog-states";
import { selectorRegistry } from "./selection";

/**
 * After a write that changed a catalog: the other instances on the database told (they catch up
 * beside this one, see catchUpOnOthersWrites), and meanwhile its state and, while preselection
 * ranks with one, its local index caught up now, as the writer waits, so that the next agent's
 * request finds both current instead of reading the changes and revising the index itself. A
 * failure here loses nothing: the write is committed, and the next request catches up as it would have.
 */
export async function catchUpAfterWrite(db: Db, catalogId: string): Promise<void> {
  await Promise.all([
    announceCatalogChange(db, catalogId).catch((error: unknown) =>
      log.warn({ err: error, catalog: catalogId }, "Telling the other instances of a write failed (they will read it on their next request):"),
    ),
    catchUp(db, catalogId),
  ]);
}

/** Catches up on the catalogs that other instances on the same PostgreSQL database announce they changed, as they write (nothing on SQLite). */
export function catchUpOnOthersWrites(db: Db): CatalogChangeListener {
  return listenForCatalogChanges(
    db,
    (catalogId) => void catchUp(db, catalogId),
    (error) => log.warn({ err: error }, "Listening for the other instances' writes failed (their writes are read on the next request):"),
  );
}

async function catchUp(db: Db, catalogId: string): Promise<void> {
  try {
    const state = await catalogState(db, catalogId);
    const { localIndexes } = selectorRegistry();
    if (localIndexes.hasLineage(catalogId)) corpusIndex(localIndexes, catalogCorpus(state.catalogId, state.revision, state.tools));
  } catch (error) {
    log.warn({ err: error, catalog: catalogId }, "Catching up after a write failed (the next request will):");
  }
}

/** A route handler that changes a catalog (its tools, rules, agents or MCP servers; see catalogRoute), answered once the catalog has caught up (catchUpAfterWrite). */
export function catalogWriteRoute<P extends { catalog: string }>(
  need: Exclude<Access, "read">,
  handler: (context: RouteContext<P> & { access: Access }) => Promise<Response> | Response,
  options: RouteOptions<P> = {},
) {
  return catalogRoute<P>(
    need,
    async (context) => {
      const response = await handler(context);
      // 202: a job writes later (a large import); the first request after it catches up.
      if (response.ok && response.status !== 202) await catchUpAfterWrite(getDb(), context.params.catalog);
      return response;
    },
    options,
  );
}
