"use client";

import { useRef } from "react";

/** A button that asks before doing something that cannot be undone. */
export function ConfirmButton({
  label,
  title,
  body,
  confirmLabel,
  onConfirm,
  className = "danger",
  testId,
}: {
  label: React.ReactNode;
  title: string;
  body: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  className?: string;
  testId?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className={className} onClick={() => dialog.current?.showModal()} data-testid={testId}>
        {label}
      </button>
      <dialog ref={dialog} data-testid="confirm-dialog">
        <form
          method="dialog"
          className="stack"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === "confirm") onConfirm();
          }}
        >
          <h2>{title}</h2>
          <div className="muted">{body}</div>
          <div className="row end">
            {/* biome-ignore lint/a11y/noAutofocus: the dialog opens with its focus on Cancel, the choice that changes nothing */}
            <button type="submit" value="cancel" autoFocus>
              Cancel
            </button>
            <button type="submit" value="confirm" className="danger solid" data-testid="confirm-action">
              {confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
