"use server";

import { revalidatePath } from "next/cache";
import { actionPrincipal, enforceRateLimit, requireCatalogAccess } from "@/app/_services/access";
import { applyCatalogFile } from "@/app/_services/catalog-code";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { catalogFileAction } from "@/lib/api-schemas";
import { actorOf } from "@/lib/auth/policy";
import { readCatalogCodeText } from "@/lib/catalogs/catalog-code";
import { parseWith } from "@/lib/http";

/** Plans (`dryRun`) or applies a catalog file, YAML or JSON, as POST …/apply does, and answers its plan. */
export async function applyCatalogFileAction(catalogId: string, input: unknown) {
  return runAction(async () => {
    const principal = await actionPrincipal();
    const access = await requireCatalogAccess(principal, catalogId, "write");
    await enforceRateLimit(principal, "write");
    const { text, dryRun, prune } = parseWith(catalogFileAction, input);
    const caller = { principal, access, actor: actorOf(principal) };
    const plan = await applyCatalogFile(getDb(), catalogId, readCatalogCodeText(text), { dryRun, prune }, caller);
    if (!dryRun) revalidatePath(`/catalogs/${catalogId}`, "layout");
    return plan;
  });
}
