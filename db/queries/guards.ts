import { eq } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import { catalogs } from "../schema";
import type { Tx } from "./audit";

/** Throws the 404 every query about a missing catalog gives. */
export function requireCatalog(tx: Tx, catalogId: string): void {
  if (!tx.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.id, catalogId)).get()) {
    throw notFound(`Catalog "${catalogId}"`, "catalog");
  }
}
