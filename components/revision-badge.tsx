"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { latestRevisionQuery } from "./catalog-revision";

/** How often an open page looks at its catalog's revision (and whenever its window regains focus). */
const REVISION_POLL_MS = 10_000;

/**
 * The catalog's revision as the page was rendered; when a change made elsewhere (another tab,
 * another person, the API) bumps it, the badge says so and offers to refresh the page and its data,
 * so an open page does not go on showing rules or tools that have since changed.
 */
export function RevisionBadge({ catalogId, revision }: { catalogId: string; revision: number }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const latest = useQuery({
    ...latestRevisionQuery(catalogId),
    refetchInterval: REVISION_POLL_MS,
    refetchOnWindowFocus: "always",
  });
  const newer = latest.data !== undefined && latest.data > revision ? latest.data : undefined;
  if (newer === undefined) {
    return (
      <span className="badge" title="Every change bumps the revision" data-testid="catalog-revision">
        revision {revision}
      </span>
    );
  }
  return (
    <span className="badge warn" role="status" title="The catalog changed since this page was loaded" data-testid="catalog-revision">
      revision {revision} → {newer} ·{" "}
      <button
        type="button"
        className="ghost small-button"
        onClick={() => {
          router.refresh();
          void queryClient.invalidateQueries();
        }}
        data-testid="revision-refresh"
      >
        Refresh
      </button>
    </span>
  );
}
