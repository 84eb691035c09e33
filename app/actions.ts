"use server";

import { revalidatePath } from "next/cache";
import { syncLocalSources } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { createCatalog, deleteCatalog, updateCatalog } from "@/db/queries/catalogs";
import { runAction } from "@/lib/action-result";
import { createCatalogBody, updateCatalogBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

const WEB_ACTOR = "web";

export async function createCatalogAction(input: unknown) {
  return runAction(async () => {
    const db = getDb();
    const catalog = createCatalog(db, parseWith(createCatalogBody, input), WEB_ACTOR);
    await syncLocalSources(db, catalog.id);
    revalidatePath("/");
    return catalog;
  });
}

export async function updateCatalogAction(id: string, input: unknown) {
  return runAction(() => {
    const catalog = updateCatalog(getDb(), id, parseWith(updateCatalogBody, input), WEB_ACTOR);
    revalidatePath("/", "layout");
    return catalog;
  });
}

export async function deleteCatalogAction(id: string) {
  return runAction(() => {
    deleteCatalog(getDb(), id);
    revalidatePath("/");
    return { id };
  });
}
