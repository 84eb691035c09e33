"use client";

import { useRef, useState } from "react";
import type { RestoredVersion } from "@/app/_services/restore";
import { previewRestoreAction } from "@/app/catalogs/[catalog]/actions";
import type { RestorePreview } from "@/lib/catalogs/restore-preview";

interface Props {
  catalogId: string;
  entryId: number;
  version: RestoredVersion;
  /** For a tool's history: the tool's name now. */
  tool?: string;
  label: string;
  pending: boolean;
  onConfirm: (preview: RestorePreview) => void;
}

type Shown = { state: "loading" } | { state: "failed"; message: string } | { state: "ready"; preview: RestorePreview };

/**
 * "Restore this version", which first asks the server what the restore would change and says it
 * in a confirmation (names included: "renames send_mail back to sendMail, changes its
 * description"), and what it would not; when it would change nothing, it says so and offers no
 * Restore.
 */
export function RestoreButton({ catalogId, entryId, version, tool, label, pending, onConfirm }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [shown, setShown] = useState<Shown>({ state: "loading" });
  const open = async () => {
    setShown({ state: "loading" });
    dialog.current?.showModal();
    const result = await previewRestoreAction(catalogId, entryId, { version, ...(tool ? { tool } : {}) });
    setShown(result.ok ? { state: "ready", preview: result.data } : { state: "failed", message: result.error.message });
  };
  const changes = shown.state === "ready" ? shown.preview.changes : [];
  return (
    <>
      <button type="button" className="small-button" onClick={() => void open()} data-testid={`restore-${entryId}`}>
        {label}
      </button>
      <dialog ref={dialog} data-testid="confirm-dialog" aria-labelledby={`restore-title-${entryId}`}>
        <form
          method="dialog"
          className="stack"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === "confirm" && shown.state === "ready") onConfirm(shown.preview);
          }}
        >
          <h2 id={`restore-title-${entryId}`}>
            Restore the version {version} #{entryId}?
          </h2>
          <RestorePreviewText shown={shown} />
          <div className="row end">
            {/* biome-ignore lint/a11y/noAutofocus: the dialog opens with its focus on Cancel, the choice that changes nothing */}
            <button type="submit" value="cancel" autoFocus>
              {changes.length > 0 ? "Cancel" : "Close"}
            </button>
            {changes.length > 0 && (
              <button type="submit" value="confirm" className="danger solid" data-testid="confirm-action">
                {pending ? "Restoring…" : "Restore"}
              </button>
            )}
          </div>
        </form>
      </dialog>
    </>
  );
}

function RestorePreviewText({ shown }: { shown: Shown }) {
  if (shown.state === "loading")
    return (
      <p className="muted" role="status">
        Finding out what it would change…
      </p>
    );
  if (shown.state === "failed")
    return (
      <div className="error-box" role="alert" data-testid="restore-preview-error">
        {shown.message}
      </div>
    );
  const { changes, notes } = shown.preview;
  return (
    <div className="stack" data-testid="restore-preview">
      {changes.length > 0 ? (
        <>
          <p>It will:</p>
          <ul data-testid="restore-changes">
            {changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
          <p className="muted small">
            It is saved as an edit is: checked, one new revision, recorded in this history. Unsaved edits on this page are replaced.
          </p>
        </>
      ) : (
        <p data-testid="restore-nothing">Nothing would change: what this version sets is already so.</p>
      )}
      {notes.map((note) => (
        <p key={note} className="sources-warn-box small" data-testid="restore-note">
          {note}
        </p>
      ))}
    </div>
  );
}
