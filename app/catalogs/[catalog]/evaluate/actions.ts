"use server";

import { authorizeCatalogAction } from "@/app/_services/access";
import { unknownToolsOfCases } from "@/app/_services/evaluations";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { evaluationCasesSchema } from "@/lib/evaluation/cases";
import { parseWith } from "@/lib/http";

/** Checks imported or written cases before a run: their shape, and which name tools the catalog lacks. */
export async function checkCasesAction(catalogId: string, cases: unknown) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "read");
    return unknownToolsOfCases(getDb(), catalogId, parseWith(evaluationCasesSchema, cases));
  });
}
