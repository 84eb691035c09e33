"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import type { RestoredVersion, RestoreResult } from "@/app/_services/restore";
import { restoreVersionAction } from "@/app/catalogs/[catalog]/actions";
import { fetchHistory, queryKeys, type AuditEntry } from "./api-client";
import { useCan } from "./catalog-access";
import { ConfirmButton } from "./confirm-button";
import { ChangeSummary } from "./definition-diff";
import { LocalTime } from "./local-time";

/** The version "Restore" brings back from an entry: the one it made, or for a deletion the one it removed. */
function restorableVersion(entry: AuditEntry): RestoredVersion | undefined {
  if (entry.after !== null) return "after";
  return entry.before !== null ? "before" : undefined;
}

interface TimelineProps {
  catalogId: string;
  entries?: AuditEntry[];
  error?: Error | null;
  /** For a tool's history: its name now, which a restore of an entry under an earlier name applies to. */
  tool?: string;
  /** Whether each entry names its subject (a history of several agents or parts of the rules). */
  showSubject?: boolean;
  onRestored: (result: RestoreResult) => void;
}

/** A history panel, newest first: each change with who made it, when, what it changed and, for editors, "Restore this version". */
export function AuditTimeline({ catalogId, entries, error, tool, showSubject = false, onRestored }: TimelineProps) {
  const canEdit = useCan("write");
  const [pending, startTransition] = useTransition();
  const restore = (entry: AuditEntry, version: RestoredVersion) =>
    startTransition(async () => {
      const result = await restoreVersionAction(catalogId, entry.id, { version, ...(tool ? { tool } : {}) });
      if (!result.ok) return void toast.error(result.error.message);
      if (result.data.changed) toast.success(`Restored the version ${version} #${entry.id}`);
      else toast.info("That version is the current one: nothing changed.");
      onRestored(result.data);
    });
  return (
    <div className="panel" data-testid="audit-history">
      <h2>History</h2>
      {error && <div className="error-box">{error.message}</div>}
      {entries?.length === 0 && <p className="muted">No changes recorded yet.</p>}
      <ul className="timeline">
        {entries?.map((entry) => {
          const version = restorableVersion(entry);
          return (
            <li key={entry.id} data-testid="audit-entry">
              <div className="spread">
                <span>
                  <b data-testid="audit-action">{entry.action}</b>
                  {showSubject && <code> {entry.subject}</code>} by <span data-testid="audit-actor">{entry.actorName}</span>
                </span>
                <span className="faint small">
                  #{entry.id} · rev {entry.revision} · <LocalTime iso={entry.createdAt} />
                </span>
              </div>
              <ChangeSummary before={entry.before} after={entry.after} />
              {canEdit && version && (
                <ConfirmButton
                  label={version === "after" ? "Restore this version" : "Restore the deleted version"}
                  className="small-button"
                  testId={`restore-${entry.id}`}
                  title={`Restore the version ${version} #${entry.id}?`}
                  body="It is saved as an edit is: checked, one new revision, recorded in this history. Unsaved edits on this page are replaced."
                  confirmLabel={pending ? "Restoring…" : "Restore"}
                  onConfirm={() => restore(entry, version)}
                />
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

interface CatalogHistoryProps {
  catalogId: string;
  of: "rules" | "agents";
  /** The catalog's revision as the page last rendered it: a save re-renders the page, and the history follows. */
  revision: number;
  /** Told of each restore, besides the page being refreshed. */
  onRestored?: (result: RestoreResult) => void;
}

/** The history of the catalog's rules or agents, in a panel; a restore refreshes the page. */
export function CatalogHistory({ catalogId, of, revision, onRestored }: CatalogHistoryProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { data: entries, error } = useQuery({ queryKey: [...queryKeys.history(catalogId, of), revision], queryFn: () => fetchHistory(catalogId, of) });
  return (
    <AuditTimeline
      catalogId={catalogId}
      entries={entries}
      error={error}
      showSubject
      onRestored={(result) => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.history(catalogId, of) });
        onRestored?.(result);
        router.refresh();
      }}
    />
  );
}
