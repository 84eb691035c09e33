import type { UseChatHelpers } from "@ai-sdk/react";
import { type RefObject, useEffect, useState } from "react";
import type { PlaygroundExchange, PlaygroundUIMessage } from "@/lib/playground/messages";
import { type ChatFailure, describeChatError, resentExchange, withoutLastTurn } from "./playground-chat";

/** The exchanges of the chat's requests: the last one sent, and the one the next request resends (a Retry). */
export interface ExchangeRefs {
  last: RefObject<PlaygroundExchange | undefined>;
  resend: RefObject<PlaygroundExchange | undefined>;
}

/**
 * The composer's text and what sending does with it; after a failed request, what failed (named by
 * where it failed) and its Retry. A failed message goes back into an empty composer, so nothing
 * typed is lost; Retry (or sending again) replaces the failed turn rather than adding one, and the
 * same message sent again keeps its key, so the server never stores it twice (resentExchange).
 */
export function usePlaygroundSend(chat: UseChatHelpers<PlaygroundUIMessage>, exchanges: ExchangeRefs) {
  const [draft, setDraft] = useState("");
  const failure: ChatFailure | undefined = chat.status === "error" && chat.error ? describeChatError(chat.error) : undefined;
  const failedMessage = failure ? exchanges.last.current?.message : undefined;
  // A failed message returns to the composer, unless something else was typed since.
  useEffect(() => {
    if (failedMessage) setDraft((typed) => typed || failedMessage);
  }, [failedMessage]);
  const sendText = (text: string) => {
    if (failedMessage !== undefined) {
      chat.setMessages(withoutLastTurn(chat.messages));
      exchanges.resend.current = resentExchange(exchanges.last.current, text);
    }
    void chat.sendMessage({ text });
  };
  return {
    draft,
    setDraft,
    failure,
    send: (text: string) => {
      setDraft("");
      sendText(text);
    },
    retry: () => {
      const exchange = exchanges.last.current;
      if (exchange?.message === undefined) {
        // The results of simulated calls: the same ones again, whatever the failed stream added.
        exchanges.resend.current = exchange;
        void chat.sendMessage();
        return;
      }
      if (draft === exchange.message) setDraft("");
      sendText(exchange.message);
    },
  };
}
