"use client";

import { toolCount } from "@/lib/tools/bulk";
import { BulkDeleteButton, BulkMoveButton, BulkTagsButton } from "./tool-bulk-dialogs";
import type { BulkRequest } from "./tool-bulk";
import { selectionCount, type ToolSelection } from "./tool-selection";

/**
 * Above the tools table while tools are selected: how many, "select all N matching" (every match,
 * also the rows not loaded), and what to do with them; each action is one request and one change.
 */
export function ToolBulkBar({
  catalogId,
  selection,
  total,
  pending,
  onSelectAllMatching,
  onClear,
  onAction,
}: {
  catalogId: string;
  selection: ToolSelection;
  total: number;
  pending: boolean;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onAction: (request: Omit<BulkRequest, "names" | "matching">) => void;
}) {
  const count = selectionCount(selection);
  if (count === 0) return null;
  return (
    <section className="panel row bulk-bar" aria-label="Selected tools" data-testid="bulk-bar">
      <strong data-testid="bulk-count" aria-live="polite">
        {selection.kind === "matching" ? `All ${toolCount(count)} matching selected` : `${count.toLocaleString("en")} selected`}
      </strong>
      {selection.kind === "names" && total > count && (
        <button type="button" className="ghost" onClick={onSelectAllMatching} data-testid="select-all-matching">
          Select all {total.toLocaleString("en")} matching
        </button>
      )}
      <button type="button" className="ghost" onClick={onClear} data-testid="bulk-clear">
        Clear
      </button>
      <span className="spacer" style={{ flex: 1 }} />
      <fieldset className="row" disabled={pending} style={{ border: 0, padding: 0, margin: 0 }}>
        <button type="button" onClick={() => onAction({ action: "enable" })} data-testid="bulk-enable">
          Enable
        </button>
        <button type="button" onClick={() => onAction({ action: "disable" })} data-testid="bulk-disable">
          Disable
        </button>
        <BulkTagsButton count={count} onConfirm={(tags) => onAction({ action: "tag", ...tags })} />
        <BulkMoveButton catalogId={catalogId} count={count} onConfirm={(request) => onAction(request)} />
        <BulkDeleteButton count={count} onConfirm={() => onAction({ action: "delete" })} />
      </fieldset>
    </section>
  );
}
