import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { definitionDigest, heldBackState, PINNED_SOURCES, pinnedDefinitionOf, type PinnedDefinition } from "@/lib/tools/pinning";
import type { HeldBack } from "@/lib/tools/types";
import { writeTransaction, type Db } from "../client";
import { tools } from "../tables";
import type { ToolRow } from "../schema";
import { recordChanges } from "./audit";
import { requireCatalog } from "./guards";
import { findRow } from "./tools";

const APPROVE_DEFINITION_ACTION = "approve-definition";
const REJECT_DEFINITION_ACTION = "reject-definition";

/** A held-back tool (lib/tools/pinning.ts): what an editor approved, what its server lists now, and the digest an approval must name. */
export interface DefinitionReview {
  name: string;
  source: ToolRow["source"];
  sourceRef: string | null;
  state: HeldBack;
  approved: PinnedDefinition | null;
  current: PinnedDefinition;
  digest: string;
  /** An editor rejected this very definition: the tool stays held back, and the change is no longer asked about. */
  rejected: boolean;
}

function reviewOf(row: ToolRow): DefinitionReview | undefined {
  const current = pinnedDefinitionOf(row);
  const state = heldBackState(row.source, current, row.approvedDefinition);
  if (state === undefined) return undefined;
  const digest = definitionDigest(current);
  return {
    name: row.name,
    source: row.source,
    sourceRef: row.sourceRef,
    state,
    approved: row.approvedDefinition,
    current,
    digest,
    rejected: row.rejectedDigest === digest,
  };
}

/** The catalog's held-back tools, in catalog order (rejected ones included, marked). */
export async function listDefinitionReviews(db: Db, catalogId: string): Promise<DefinitionReview[]> {
  await requireCatalog(db, catalogId);
  const rows = await db
    .select()
    .from(tools)
    .where(and(eq(tools.catalogId, catalogId), inArray(tools.source, [...PINNED_SOURCES])))
    .orderBy(asc(tools.id));
  return rows.flatMap((row) => reviewOf(row) ?? []);
}

export interface ReviewDecision {
  tool: string;
  decision: "approve" | "reject";
  /** The digest of the definition the editor saw (DefinitionReview.digest): another one is a conflict. */
  digest: string;
}

/**
 * Approves a held-back tool's current definition (it is offered again, and pinned to that one) or
 * rejects it (it stays held back until its server lists an approved definition again, or another
 * change comes to be reviewed). One audited change, one revision. A definition other than the one
 * the editor saw (the server changed it again meanwhile) is a 409: nothing unseen is approved.
 */
export async function reviewDefinition(
  db: Db,
  catalogId: string,
  { tool, decision, digest }: ReviewDecision,
  actor: string,
): Promise<DefinitionReview | undefined> {
  return writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    const row = await findRow(tx, catalogId, tool);
    if (!row) throw notFound(`Tool "${tool}" in catalog "${catalogId}"`, "tool");
    const review = reviewOf(row);
    if (!review)
      throw new ToolshedError("conflict", `"${tool}" has no definition waiting for review: it is offered as approved, or its source is not pinned.`, "tool");
    if (review.digest !== digest) {
      throw new ToolshedError("conflict", `The definition of "${tool}" changed again since this one was shown: review the current one.`, "digest");
    }
    const now = new Date();
    if (decision === "approve") {
      await tx.update(tools).set({ approvedDefinition: review.current, rejectedDigest: null, updatedAt: now }).where(eq(tools.id, row.id));
    } else {
      await tx.update(tools).set({ rejectedDigest: digest, updatedAt: now }).where(eq(tools.id, row.id));
    }
    await recordChanges(tx, catalogId, actor, [
      {
        subjectKind: "tool",
        subject: tool,
        action: decision === "approve" ? APPROVE_DEFINITION_ACTION : REJECT_DEFINITION_ACTION,
        before: { approvedDefinition: review.approved },
        after: decision === "approve" ? { approvedDefinition: review.current } : { approvedDefinition: review.approved, rejectedDefinition: review.current },
      },
    ]);
    const updated = await findRow(tx, catalogId, tool);
    return updated && reviewOf(updated);
  });
}
