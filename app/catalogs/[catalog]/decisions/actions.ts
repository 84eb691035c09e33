"use server";

import { replayBody, replayDecisionById } from "@/app/_services/replay";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { parseWith } from "@/lib/http";

/** Replays a decision for its page. It reads only, so nothing needs revalidating. */
export async function replayDecisionAction(decisionId: string, request: unknown) {
  return runAction(() => replayDecisionById(getDb(), decisionId, parseWith(replayBody, request)));
}
