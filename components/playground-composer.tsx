"use client";

import { useState } from "react";

/** `onStop`, while the main model answers: stops it. */
export function Composer({ disabled, onSend, onStop }: { disabled: boolean; onSend: (message: string) => void; onStop?: () => void }) {
  const [text, setText] = useState("");
  const send = () => {
    if (!text.trim() || disabled) return;
    onSend(text.trim());
    setText("");
  };
  return (
    <form
      className="panel row composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        rows={2}
        value={text}
        onChange={(event) => setText(event.target.value)}
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
