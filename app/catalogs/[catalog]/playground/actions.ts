"use server";

import { authorizeCatalogAction } from "@/app/_services/access";
import { answerToolSearch } from "@/app/_services/selection";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { toolSearchBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

/** A ToolSearch call from the playground's console, recorded as a decision, as POST …/tool-search answers it (viewers). */
export async function toolSearchAction(catalogId: string, search: unknown) {
  return runAction(async () => {
    const { principal } = await authorizeCatalogAction(catalogId, "read");
    return answerToolSearch(getDb(), catalogId, principal, parseWith(toolSearchBody, search));
  });
}
