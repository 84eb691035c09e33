"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import type { RestoredVersion, RestoreResult } from "@/app/_services/restore";
import { restoreVersionAction } from "@/app/catalogs/[catalog]/actions";
import { fetchHistory, queryKeys, type AuditEntry } from "./api-client";
import { useCan } from "./catalog-access";
import type { RestorePreview } from "@/lib/catalogs/restore-preview";
import { RULE_PART_LABELS } from "@/lib/rules/rule-changes";
import { ChangeSummary } from "./definition-diff";
import { LocalTime } from "./local-time";
import { RestoreButton } from "./restore-button";

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
  const restore = (entry: AuditEntry, version: RestoredVersion, preview: RestorePreview) =>
    startTransition(async () => {
      const result = await restoreVersionAction(catalogId, entry.id, { version, ...(tool ? { tool } : {}) });
      if (!result.ok) return void toast.error(result.error.message);
      if (result.data.changed) toast.success(`Restored the version ${version} #${entry.id}`, { description: preview.changes.join("; ") });
      else toast.info("Nothing changed: what that version sets was already so.");
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
                  {showSubject && <SubjectName entry={entry} />} by <span data-testid="audit-actor">{entry.actorName}</span>
                </span>
                <span className="faint small">
                  #{entry.id} · rev {entry.revision} · <LocalTime iso={entry.createdAt} />
                </span>
              </div>
              <ChangeSummary
                before={entry.before}
                after={entry.after}
                rulesPart={entry.subjectKind === "agent" || entry.subjectKind === "tool" ? undefined : entry.subject}
              />
              {canEdit && version && (
                <RestoreButton
                  catalogId={catalogId}
                  entryId={entry.id}
                  version={version}
                  tool={tool}
                  label={version === "after" ? "Restore this version" : "Restore the deleted version"}
                  pending={pending}
                  onConfirm={(preview) => restore(entry, version, preview)}
                />
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** What an entry is about, as a person names it: a part of the rules by its title, an agent by its name. */
function SubjectName({ entry }: { entry: AuditEntry }) {
  const part = entry.subjectKind === "agent" ? undefined : RULE_PART_LABELS[entry.subject];
  return part ? <span data-testid="audit-subject"> {part}</span> : <code data-testid="audit-subject"> {entry.subject}</code>;
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
