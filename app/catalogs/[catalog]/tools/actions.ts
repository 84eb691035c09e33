"use server";

import { revalidatePath } from "next/cache";
import { authorizeCatalogAction } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { createCustomTool, deleteTool, importTools, updateTool } from "@/db/queries/tools";
import { runAction } from "@/lib/action-result";
import { toolBody } from "@/lib/api-schemas";
import { parseImport } from "@/lib/catalogs/exchange";
import { parseWith } from "@/lib/http";

function refresh(catalogId: string) {
  revalidatePath(`/catalogs/${catalogId}`, "layout");
}

export async function createToolAction(catalogId: string, draft: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const tool = createCustomTool(getDb(), catalogId, parseWith(toolBody, draft), actor);
    refresh(catalogId);
    return tool;
  });
}

export async function updateToolAction(catalogId: string, name: string, patch: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const tool = updateTool(getDb(), catalogId, name, parseWith(toolBody, patch), actor);
    refresh(catalogId);
    return tool;
  });
}

export async function deleteToolAction(catalogId: string, name: string) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    deleteTool(getDb(), catalogId, name, actor);
    refresh(catalogId);
    return { name };
  });
}

export async function importToolsAction(catalogId: string, document: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const result = importTools(getDb(), catalogId, parseImport(document), actor);
    refresh(catalogId);
    return result;
  });
}
