"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/db/client";
import { deleteAgent, saveAgent } from "@/db/queries/agents";
import { runAction } from "@/lib/action-result";
import { agentBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

const WEB_ACTOR = "web";

/** Creates an agent, or replaces `previousName` (possibly renaming it). */
export async function saveAgentAction(catalogId: string, agent: unknown, previousName?: string) {
  return runAction(() => {
    const saved = saveAgent(getDb(), catalogId, parseWith(agentBody, agent), WEB_ACTOR, previousName);
    revalidatePath(`/catalogs/${catalogId}`, "layout");
    return saved;
  });
}

export async function deleteAgentAction(catalogId: string, name: string) {
  return runAction(() => {
    deleteAgent(getDb(), catalogId, name, WEB_ACTOR);
    revalidatePath(`/catalogs/${catalogId}`, "layout");
    return { name };
  });
}
