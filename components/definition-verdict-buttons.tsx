"use client";

import type { DefinitionReview } from "./api-client";
import type { useDefinitionVerdict } from "./definition-verdict";

/** An editor's Approve and (unless already rejected) Reject of a held-back tool's definition, through the page's one verdict (all its buttons wait for it). */
export function DefinitionVerdictButtons({
  verdict,
  review,
  approveLabel,
  testIds,
}: {
  verdict: ReturnType<typeof useDefinitionVerdict>;
  review: DefinitionReview;
  approveLabel: string;
  testIds: { approve: string; reject: string };
}) {
  return (
    <div className="row">
      <button
        type="button"
        className="primary"
        disabled={verdict.isPending}
        onClick={() => verdict.mutate({ review, decision: "approve" })}
        data-testid={testIds.approve}
      >
        {approveLabel}
      </button>
      {!review.rejected && (
        <button type="button" disabled={verdict.isPending} onClick={() => verdict.mutate({ review, decision: "reject" })} data-testid={testIds.reject}>
          Reject
        </button>
      )}
    </div>
  );
}
