"use server";

import { authorizeCatalogAction } from "@/app/_services/access";
import { learningStatus, resetLearning, setLearning } from "@/app/_services/learning";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { learningBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

/** Turns learning from use on or off, as PUT …/learning does (editors). */
export async function setLearningAction(catalogId: string, body: unknown) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "write");
    return setLearning(getDb(), catalogId, parseWith(learningBody, body).enabled);
  });
}

/** Forgets what the catalog learned, as DELETE …/learning does (editors). */
export async function resetLearningAction(catalogId: string) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "write");
    const deleted = await resetLearning(getDb(), catalogId);
    return { deleted, ...(await learningStatus(getDb(), catalogId)) };
  });
}
