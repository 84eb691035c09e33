"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizeCatalogAction } from "@/app/_services/access";
import { approvePrompt } from "@/app/_services/mcp-federation";
import { reloadLocalSourcesEverywhere } from "@/app/_services/local-sources";
import { addMcpServer, removeMcpServer, syncMcpServer } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { getMcpServer } from "@/db/queries/mcp-servers";
import { runAction } from "@/lib/action-result";
import { mcpServerBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

const refresh = (catalogId: string) => revalidatePath(`/catalogs/${catalogId}`, "layout");

/** Adds a server and syncs it at once, in one revision, as POST /mcp-servers does: an unreachable server is still added, with its error. */
export async function addMcpServerAction(catalogId: string, body: unknown) {
  return runAction(async () => {
    const { principal } = await authorizeCatalogAction(catalogId, "admin");
    const config = parseWith(mcpServerBody, body);
    const db = getDb();
    const sync = await addMcpServer(db, catalogId, config, principal);
    refresh(catalogId);
    return { server: await getMcpServer(db, catalogId, config.name), sync };
  });
}

export async function syncMcpServerAction(catalogId: string, name: string) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "admin");
    const db = getDb();
    const sync = await syncMcpServer(db, catalogId, name);
    refresh(catalogId);
    return { server: await getMcpServer(db, catalogId, name), sync };
  });
}

/** Removes the server and its tools (their audit history stays) and closes its connection, as DELETE does. */
export async function deleteMcpServerAction(catalogId: string, name: string) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "admin");
    await removeMcpServer(getDb(), catalogId, name, actor);
    refresh(catalogId);
    return { name };
  });
}

/** Reads the plugin, skill and agent folders again and updates every catalog's tools, as POST /sources/reload does. */
export async function reloadSourcesAction(catalogId: string) {
  return runAction(async () => {
    const { principal } = await authorizeCatalogAction(catalogId, "admin");
    const local = await reloadLocalSourcesEverywhere(getDb(), principal);
    refresh(catalogId);
    return { loadedAt: local.loadedAt, errors: local.errors };
  });
}

const promptApprovalBody = z.strictObject({ server: z.string().min(1).max(64), prompt: z.string().min(1).max(1_000), digest: z.string().min(1).max(100) });

/** An editor approves a server's prompt definition, as its digest names it: the gateway offers it from now on. */
export async function approvePromptAction(catalogId: string, body: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const { server, prompt, digest } = parseWith(promptApprovalBody, body);
    await approvePrompt(catalogId, server, prompt, digest, actor);
    refresh(catalogId);
    return { prompt };
  });
}
