"use client";

import type { Ref } from "react";

interface Props {
  /** The message being written: kept by the page, so a failed send can give it back. */
  text: string;
  onText: (text: string) => void;
  disabled: boolean;
  onSend: (message: string) => void;
  /** While the main model answers: stops it. */
  onStop?: () => void;
  /** While an answer streams and the reader scrolled up from it: brings its newest text back into sight. */
  onJump?: () => void;
  /** The composer sticks to the bottom of the window: the page follows an answer down to its top. */
  ref?: Ref<HTMLFormElement>;
}

/** The message box, with Send, or Stop while the main model answers; it stays in sight at the window's bottom. */
export function Composer({ text, onText, disabled, onSend, onStop, onJump, ref }: Props) {
  const send = () => {
    if (!text.trim() || disabled) return;
    onSend(text.trim());
  };
  return (
    <form
      ref={ref}
      className="panel row composer"
      data-testid="composer-bar"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {onJump && (
        <button type="button" className="jump-to-latest" onClick={onJump} data-testid="jump-to-latest">
          ↓ Jump to latest
        </button>
      )}
      <textarea
        rows={2}
        value={text}
        onChange={(event) => onText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey) {
            event.preventDefault();
            send();
          }
        }}
        placeholder="Message (Enter sends, Shift+Enter for a new line)"
        aria-label="Message"
        data-testid="composer"
        style={{ flex: 1 }}
      />
      {onStop ? (
        <button type="button" onClick={onStop} data-testid="stop">
          Stop
        </button>
      ) : (
        <button type="submit" className="primary" disabled={disabled || !text.trim()} data-testid="send">
          Send
        </button>
      )}
    </form>
  );
}
