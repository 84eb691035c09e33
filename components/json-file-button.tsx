"use client";

import { type PropsWithChildren, useRef } from "react";

/**
 * A button that opens the file picker for one JSON file (or what `accept` names; a real button, so
 * the keyboard reaches it); the hidden input clears itself once it hands the file on, so the same
 * file can be picked again.
 */
export function JsonFileButton({
  children,
  onFile,
  disabled,
  inputTestId,
  buttonTestId,
  accept = "application/json,.json",
}: PropsWithChildren<{
  onFile: (file: File) => void;
  disabled?: boolean;
  inputTestId: string;
  buttonTestId?: string;
  accept?: string;
}>) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        data-testid={inputTestId}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) onFile(file);
        }}
      />
      <button type="button" onClick={() => input.current?.click()} disabled={disabled} data-testid={buttonTestId}>
        {children}
      </button>
    </>
  );
}
