"use server";

import { revalidatePath } from "next/cache";
import { actionPrincipal, authorizeCatalogAction, enforceRateLimit, requireCatalogAccess } from "@/app/_services/access";
import { catchUpAfterWrite } from "@/app/_services/catalog-writes";
import { previewRestore, restoreVersion } from "@/app/_services/restore";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { auditEntryId, restoreBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

/** Restores the version of a tool, agent or part of the rules that audit entry `entry` recorded, as POST …/audit/{id}/restore does (editors). */
export async function restoreVersionAction(catalogId: string, entry: number, request: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const restored = await restoreVersion(getDb(), catalogId, { ...parseWith(restoreBody, request), entry: parseWith(auditEntryId, entry) }, actor);
    await catchUpAfterWrite(getDb(), catalogId);
    revalidatePath(`/catalogs/${catalogId}`, "layout");
    return restored;
  });
}

/** What restoring that version would change, for the confirmation before it (editors): nothing is written, so it counts as a read. */
export async function previewRestoreAction(catalogId: string, entry: number, request: unknown) {
  return runAction(async () => {
    const principal = await actionPrincipal();
    await requireCatalogAccess(principal, catalogId, "write");
    await enforceRateLimit(principal, "read");
    return previewRestore(getDb(), catalogId, { ...parseWith(restoreBody, request), entry: parseWith(auditEntryId, entry) });
  });
}
