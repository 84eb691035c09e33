import "server-only";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { withActorNames } from "@/db/queries/audit";
import { listAuditBetween, type CatalogChange } from "@/db/queries/audit-between";
import { getDecision } from "@/db/queries/decisions";
import type { replayBody } from "@/lib/api-schemas";
import { ToolshedError } from "@/lib/errors";
import { replayDecision, type ReplayResult } from "@/lib/selection/replay";
import type { Selector } from "@/lib/selection/selector";
import { isFederationKind } from "@/lib/selection/types";
import { selectorById, selectorRegistry } from "./selection";
import { catalogState } from "./catalog-states";

export interface ReplayResponse extends ReplayResult {
  decisionId: string;
  catalogId: string;
  /** Each with who made it in words (`actorName`). */
  catalogChanges: (CatalogChange & { actorName: string })[];
}

/**
 * The selector a replay runs with: the one asked for (an unknown id is a 400), else the one the
 * decision meant to use (the model it fell back from, if any) when it is still configured, else the
 * configured auxiliary selector.
 */
function replaySelector(requested: string | undefined, recorded: { selector: string | null; fallback: { from: string } | null }): Selector {
  if (requested !== undefined) return selectorById(requested);
  const intended = recorded.fallback?.from ?? recorded.selector;
  const { local, aux, hybrid } = selectorRegistry();
  if (intended === local.id) return local;
  if (hybrid && intended === hybrid.id) return hybrid;
  return aux;
}

/** Replays a recorded decision against the catalog as it is now. Reads only: nothing is recorded. */
export async function replayDecisionById(db: Db, id: string, request: z.infer<typeof replayBody> = {}): Promise<ReplayResponse> {
  const decision = await getDecision(db, id);
  if (isFederationKind(decision.kind)) {
    throw new ToolshedError("bad_request", `Decision "${id}" is a resource read or prompt get: only selections and tool calls are replayed.`, "id");
  }
  const missing = (decision.input as { messagesUnavailable?: number } | null)?.messagesUnavailable;
  if (missing) {
    throw new ToolshedError(
      "conflict",
      `Decision "${id}" cannot be replayed: the ${missing} conversation messages it refers to were deleted with the conversation.`,
      "conversationId",
    );
  }
  const selector = replaySelector(request.selector, decision);
  const state = await catalogState(db, decision.catalogId);
  // A gateway call is checked against what its session has found by now (nothing, once the conversation is deleted).
  const result = await replayDecision({ decision, state, selector });
  const catalogChanges = await withActorNames(db, await listAuditBetween(db, decision.catalogId, decision.revision, state.revision));
  return { decisionId: decision.id, catalogId: decision.catalogId, ...result, catalogChanges };
}
