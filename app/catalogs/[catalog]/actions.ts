"use server";

import { revalidatePath } from "next/cache";
import { authorizeCatalogAction } from "@/app/_services/access";
import { restoreVersion } from "@/app/_services/restore";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { auditEntryId, restoreBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

/** Restores the version of a tool, agent or part of the rules that audit entry `entry` recorded, as POST …/audit/{id}/restore does (editors). */
export async function restoreVersionAction(catalogId: string, entry: number, request: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const restored = await restoreVersion(getDb(), catalogId, { ...parseWith(restoreBody, request), entry: parseWith(auditEntryId, entry) }, actor);
    revalidatePath(`/catalogs/${catalogId}`, "layout");
    return restored;
  });
}
