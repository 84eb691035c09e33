"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizeCatalogAction } from "@/app/_services/access";
import { catchUpAfterWrite } from "@/app/_services/catalog-writes";
import { previewModelRules } from "@/app/_services/rules-preview";
import { getDb } from "@/db/client";
import { saveRules } from "@/db/queries/rules";
import { runAction } from "@/lib/action-result";
import { rulesBody, toolListBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

/** Saves the parts of a catalog's rules that `input` names, all or nothing. */
export async function saveRulesAction(catalogId: string, input: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const rules = await saveRules(getDb(), catalogId, parseWith(rulesBody, input), actor);
    await catchUpAfterWrite(getDb(), catalogId);
    revalidatePath(`/catalogs/${catalogId}`, "layout");
    return rules;
  });
}

const previewInput = z.strictObject({ modelRules: rulesBody.shape.modelRules.unwrap(), model: toolListBody.shape.model, agent: toolListBody.shape.agent });

/**
 * What the model rules as typed would add to and remove from the Simulator's list of one model and
 * agent, before they are saved (viewers too: nothing is written).
 */
export async function previewModelRulesAction(catalogId: string, input: unknown) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "read");
    const { modelRules, model, agent } = parseWith(previewInput, input);
    return previewModelRules(getDb(), catalogId, modelRules, { model, agent });
  });
}
