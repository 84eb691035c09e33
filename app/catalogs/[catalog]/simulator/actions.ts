"use server";

import { authorizeCatalogAction } from "@/app/_services/access";
import { federationPreview } from "@/app/_services/mcp-federation";
import { readToolList } from "@/app/_services/tool-list";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { toolListBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";
import { toolListResponse } from "@/lib/pipeline/tool-list-body";

/** A simulated tool list with its trace and token counts, as POST …/tool-list answers it (viewers). */
export async function toolListAction(catalogId: string, config: unknown) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "read");
    const { head, list } = await readToolList(getDb(), catalogId, parseWith(toolListBody, config));
    return toolListResponse(head, list);
  });
}

/** What the configuration's agent would be offered of the MCP servers' resources and prompts, from this instance's live connections (viewers). */
export async function federationPreviewAction(catalogId: string, config: unknown) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "read");
    return federationPreview(catalogId, parseWith(toolListBody, config));
  });
}
