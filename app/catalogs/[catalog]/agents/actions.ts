"use server";

import { revalidatePath } from "next/cache";
import { authorizeCatalogAction } from "@/app/_services/access";
import { catchUpAfterWrite } from "@/app/_services/catalog-writes";
import { getDb } from "@/db/client";
import { deleteAgent, saveAgent } from "@/db/queries/agents";
import { runAction } from "@/lib/action-result";
import { agentBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

/** Creates an agent, or replaces `previousName` (possibly renaming it). */
export async function saveAgentAction(catalogId: string, agent: unknown, previousName?: string) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const saved = await saveAgent(getDb(), catalogId, parseWith(agentBody, agent), actor, previousName);
    await catchUpAfterWrite(getDb(), catalogId);
    revalidatePath(`/catalogs/${catalogId}`, "layout");
    return saved;
  });
}

export async function deleteAgentAction(catalogId: string, name: string) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    await deleteAgent(getDb(), catalogId, name, actor);
    await catchUpAfterWrite(getDb(), catalogId);
    revalidatePath(`/catalogs/${catalogId}`, "layout");
    return { name };
  });
}
