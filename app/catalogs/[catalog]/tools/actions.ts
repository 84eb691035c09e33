"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { createCustomTool, deleteTool, importTools, updateTool } from "@/db/queries/tools";
import { runAction } from "@/lib/action-result";
import { toolBody } from "@/lib/api-schemas";
import { parseImport } from "@/lib/catalogs/exchange";
import { parseWith } from "@/lib/http";

const WEB_ACTOR = "web";

function refresh(catalogId: string) {
  revalidatePath(`/catalogs/${catalogId}`, "layout");
}

export async function createToolAction(catalogId: string, draft: unknown) {
  return runAction(() => {
    const tool = createCustomTool(getDb(), catalogId, parseWith(toolBody, draft), WEB_ACTOR);
    refresh(catalogId);
    return tool;
  });
}

export async function updateToolAction(catalogId: string, name: string, patch: unknown) {
  return runAction(() => {
    const tool = updateTool(getDb(), catalogId, name, parseWith(toolBody, patch), WEB_ACTOR);
    refresh(catalogId);
    return tool;
  });
}

export async function deleteToolAction(catalogId: string, name: string) {
  return runAction(() => {
    deleteTool(getDb(), catalogId, name, WEB_ACTOR);
    refresh(catalogId);
    return { name };
  });
}

export async function importToolsAction(catalogId: string, document: unknown) {
  return runAction(() => {
    const result = importTools(getDb(), catalogId, parseImport(document), WEB_ACTOR);
    refresh(catalogId);
    return result;
  });
}
