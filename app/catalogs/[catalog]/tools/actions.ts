"use server";

import { revalidatePath } from "next/cache";
import { authorizeCatalogAction } from "@/app/_services/access";
import { catchUpAfterWrite } from "@/app/_services/catalog-writes";
import { getDb } from "@/db/client";
import { reviewDefinition } from "@/db/queries/definition-reviews";
import { createCustomTool, deleteTool, updateTool } from "@/db/queries/tools";
import { runAction } from "@/lib/action-result";
import { definitionReviewBody, toolBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

async function refresh(catalogId: string) {
  await catchUpAfterWrite(getDb(), catalogId);
  revalidatePath(`/catalogs/${catalogId}`, "layout");
}

export async function createToolAction(catalogId: string, draft: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const tool = await createCustomTool(getDb(), catalogId, parseWith(toolBody, draft), actor);
    await refresh(catalogId);
    return tool;
  });
}

export async function updateToolAction(catalogId: string, name: string, patch: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const tool = await updateTool(getDb(), catalogId, name, parseWith(toolBody, patch), actor);
    await refresh(catalogId);
    return tool;
  });
}

/** Deletes a custom tool with every reference to it, as DELETE …/tools/{name} does, and answers the same. */
export async function deleteToolAction(catalogId: string, name: string) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const deletion = await deleteTool(getDb(), catalogId, name, actor);
    await refresh(catalogId);
    return deletion;
  });
}

/** Approves or rejects a held-back tool's definition, as POST …/definition-reviews does (editors). */
export async function reviewDefinitionAction(catalogId: string, verdict: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const review = (await reviewDefinition(getDb(), catalogId, parseWith(definitionReviewBody, verdict), actor)) ?? null;
    await refresh(catalogId);
    return review;
  });
}
