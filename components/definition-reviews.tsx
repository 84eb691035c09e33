"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchDefinitionReviews, queryKeys } from "./api-client";
import { useCan } from "./catalog-access";
import { FieldDiff } from "./definition-diff";
import { useDefinitionVerdict } from "./definition-verdict";

/**
 * MCP tools held back because their server changed their definition since an editor approved it,
 * or added them after its first listing (lib/tools/pinning.ts): each with the approved and the
 * current definition side by side; editors approve or reject the current one. Nothing when none is.
 */
export function DefinitionReviews({ catalogId }: { catalogId: string }) {
  const canEdit = useCan("write");
  const { data: reviews } = useQuery({ queryKey: queryKeys.definitionReviews(catalogId), queryFn: () => fetchDefinitionReviews(catalogId) });
  const verdict = useDefinitionVerdict(catalogId);
  if (!reviews?.length) return null;
  const waiting = reviews.filter((review) => !review.rejected).length;
  return (
    <div className="panel stack" id="definition-reviews" data-testid="definition-reviews">
      <div className="spread">
        <h2>Held back: definitions to review</h2>
        <span className="muted small">
          {waiting} waiting, {reviews.length - waiting} rejected
        </span>
      </div>
      <p className="muted small">
        These MCP tools reach no model (tool lists, ToolSearch, the playground, the MCP gateway) until an editor approves what their server says they are now.
      </p>
      {reviews.map((review) => (
        <details key={review.name} open={!review.rejected} data-testid={`definition-review-${review.name}`}>
          <summary>
            <Link href={`/catalogs/${catalogId}/tools/${encodeURIComponent(review.name)}`} prefetch={false} className="mono">
              {review.name}
            </Link>{" "}
            <span className="badge warn">{review.state === "new" ? "new on its server" : "changed by its server"}</span>
            {review.rejected && <span className="badge off">rejected</span>}
          </summary>
          <div className="stack">
            <FieldDiff before={review.approved ?? {}} after={review.current} words />
            {canEdit && (
              <div className="row">
                <button
                  type="button"
                  className="primary"
                  disabled={verdict.isPending}
                  onClick={() => verdict.mutate({ review, decision: "approve" })}
                  data-testid={`approve-${review.name}`}
                >
                  Approve this definition
                </button>
                {!review.rejected && (
                  <button
                    type="button"
                    disabled={verdict.isPending}
                    onClick={() => verdict.mutate({ review, decision: "reject" })}
                    data-testid={`reject-${review.name}`}
                  >
                    Reject
                  </button>
                )}
              </div>
            )}
          </div>
        </details>
      ))}
    </div>
  );
}
