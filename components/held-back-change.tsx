"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { type DefinitionReview, fetchDefinitionReviews, queryKeys } from "./api-client";
import { useCan } from "./catalog-access";
import { FieldDiff } from "./definition-diff";
import { useDefinitionVerdict } from "./definition-verdict";
import { DefinitionVerdictButtons } from "./definition-verdict-buttons";

/** The review of a held-back tool (what was approved, what its server lists now), read only while the tool is held back. */
export function useDefinitionReview(catalogId: string, name: string, heldBack: boolean): DefinitionReview | undefined {
  const { data } = useQuery({
    queryKey: queryKeys.definitionReviews(catalogId),
    queryFn: () => fetchDefinitionReviews(catalogId),
    enabled: heldBack,
  });
  return heldBack ? data?.find((review) => review.name === name) : undefined;
}

/**
 * A held-back tool's pending change on its own page, where it cannot be missed: what its server
 * says now against the approved definition, word by word, and for editors Approve and Reject right
 * there. Until then the tool reaches no model (lib/pipeline/aggregate.ts leaves it out).
 */
export function PendingDefinitionChange({ catalogId, review, note }: { catalogId: string; review: DefinitionReview; note?: ReactNode }) {
  const canEdit = useCan("write");
  const verdict = useDefinitionVerdict(catalogId);
  return (
    <section className="panel stack held-back-panel" aria-labelledby="pending-change-title" data-testid="pending-change">
      <div className="spread">
        <h2 id="pending-change-title">
          {review.state === "new" ? "Held back: new on its server, waiting for review" : "Held back: a change by its server waits for review"}
        </h2>
        {review.rejected && <span className="badge off">rejected</span>}
      </div>
      <p className="small">
        {review.state === "new"
          ? "No model gets this tool until an editor approves the definition below."
          : "Its server now says something else than the approved definition: below, the change word by word. No model gets the tool meanwhile. Approve it and models get the new definition; reject it and the tool stays held back until its server lists the approved definition again."}
      </p>
      <FieldDiff before={review.approved ?? {}} after={review.current} words />
      {note}
      {canEdit ? (
        <DefinitionVerdictButtons
          verdict={verdict}
          review={review}
          approveLabel="Approve this change"
          testIds={{ approve: "approve-pending", reject: "reject-pending" }}
        />
      ) : (
        <p className="muted small">Editors approve or reject it.</p>
      )}
    </section>
  );
}
