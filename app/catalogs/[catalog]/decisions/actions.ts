"use server";

import { actionPrincipal, enforceRateLimit, requireDecisionAccess } from "@/app/_services/access";
import { replayDecisionById } from "@/app/_services/replay";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { replayBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

/** Replays a decision for its page. It reads only, so nothing needs revalidating. */
export async function replayDecisionAction(decisionId: string, request: unknown) {
  return runAction(async () => {
    const principal = await actionPrincipal();
    await requireDecisionAccess(principal, decisionId);
    await enforceRateLimit(principal, "read");
    return replayDecisionById(getDb(), decisionId, parseWith(replayBody, request));
  });
}
