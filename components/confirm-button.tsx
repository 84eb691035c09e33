"use client";

import { useId, useRef } from "react";

/** A button that asks before doing something that cannot be undone. */
export function ConfirmButton({
  label,
  title,
  body,
  confirmLabel,
  onConfirm,
  className = "danger",
  confirmClassName = "danger solid",
  testId,
  dialogTestId = "confirm-dialog",
  confirmTestId = "confirm-action",
}: {
  label: React.ReactNode;
  title: string;
  body: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  className?: string;
  confirmClassName?: string;
  testId?: string;
  dialogTestId?: string;
  confirmTestId?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button type="button" className={className} onClick={() => dialog.current?.showModal()} data-testid={testId}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} data-testid={dialogTestId}>
        <form
          method="dialog"
          className="stack"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === "confirm") onConfirm();
          }}
        >
          <h2 id={titleId}>{title}</h2>
          <div className="muted">{body}</div>
          <div className="row end">
            {/* biome-ignore lint/a11y/noAutofocus: the dialog opens with its focus on Cancel, the choice that changes nothing */}
            <button type="submit" value="cancel" autoFocus>
              Cancel
            </button>
            <button type="submit" value="confirm" className={confirmClassName} data-testid={confirmTestId}>
              {confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
