"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchDefinitionReviews, queryKeys } from "./api-client";
import { useCan } from "./catalog-access";
import { FieldDiff } from "./definition-diff";
import { useDefinitionVerdict } from "./definition-verdict";
import { DefinitionVerdictButtons } from "./definition-verdict-buttons";

/**
 * MCP tools held back because their server changed their definition since an editor approved it,
 * or added them after its first listing (lib/tools/pinning.ts): each with the approved and the
 * current definition side by side; editors approve or reject the current one. Nothing when none is.
 */
export function DefinitionReviews({ catalogId }: { catalogId: string }) {
  const canEdit = useCan("write");
  const verdict = useDefinitionVerdict(catalogId);
  const { data: reviews } = useQuery({ queryKey: queryKeys.definitionReviews(catalogId), queryFn: () => fetchDefinitionReviews(catalogId) });
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
            {review.flagged && (
              <span className={`badge ${review.flagged.severity === "high" ? "off" : "warn"}`} title="What the poisoning check found: see the tool's page">
                {review.flagged.severity}: {review.flagged.kinds.join(", ")}
              </span>
            )}
          </summary>
          <div className="stack">
            <FieldDiff before={review.approved ?? {}} after={review.current} words />
            {canEdit && (
              <DefinitionVerdictButtons
                verdict={verdict}
                review={review}
                approveLabel="Approve this definition"
                testIds={{ approve: `approve-${review.name}`, reject: `reject-${review.name}` }}
              />
            )}
          </div>
        </details>
      ))}
    </div>
  );
}
