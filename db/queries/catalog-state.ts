import type { CatalogState } from "@/lib/pipeline/tool-list";
import type { Db } from "../client";
import { listAgents } from "./agents";
import { getCatalog } from "./catalogs";
import { getRules } from "./rules";
import { listTools } from "./tools";

/** Everything the pipeline reads about one catalog, read in one transaction so it is consistent. */
export function loadCatalogState(db: Db, catalogId: string): CatalogState & { revision: number } {
  return db.transaction((tx) => {
    const txDb = tx as unknown as Db;
    const { revision } = getCatalog(txDb, catalogId);
    return { catalogId, revision, tools: listTools(txDb, catalogId), rules: getRules(txDb, catalogId), agents: listAgents(tx, catalogId) };
  });
}
