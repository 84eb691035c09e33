"use server";

import { revalidatePath } from "next/cache";
import { authorizeCatalogAction } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { saveRules } from "@/db/queries/rules";
import { runAction } from "@/lib/action-result";
import { rulesBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

/** Saves the parts of a catalog's rules that `input` names, all or nothing. */
export async function saveRulesAction(catalogId: string, input: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const rules = await saveRules(getDb(), catalogId, parseWith(rulesBody, input), actor);
    revalidatePath(`/catalogs/${catalogId}`, "layout");
    return rules;
  });
}
