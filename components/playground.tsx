"use client";

import { useChat } from "@ai-sdk/react";
import { useQueryClient } from "@tanstack/react-query";
import { DefaultChatTransport } from "ai";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import type { Access } from "@/lib/auth/policy";
import type { PlaygroundExchange, PlaygroundUIMessage } from "@/lib/playground/messages";
import { conversationKeys, fetchConversation } from "./api-client";
import { type ChatTurn, exchangeOf, pendingSimulatedCalls, simulatedResultsComplete, turnsOf, uiMessagesOf } from "./playground-chat";
import { Composer } from "./playground-composer";
import { PlaygroundConversations } from "./playground-conversations";
import { useFollowLatest } from "./playground-follow";
import { type ExchangeRefs, usePlaygroundSend } from "./playground-send";
import { PendingResults } from "./playground-pending-results";
import { type PlaygroundSettings, settingsOf } from "./playground-settings";
import { PlaygroundSettingsForm } from "./playground-settings-form";
import { ToolSearchConsole } from "./playground-tool-search";
import { PlaygroundTurns } from "./playground-turns";

interface Props {
  catalogId: string;
  agents: { name: string; mode: string }[];
  knownModels: string[];
  mainModel: string | null;
  mainModelError: string | null;
  auxSelector: string;
  /** Who is looking (lib/auth/policy.ts principalKey) and their access: the Delete button shows only where they may delete. */
  viewer: { key: string; access: Access };
}

/**
 * The chat of the conversation the URL names, sent with the page's settings. `onConversation`:
 * a stream named the conversation it was stored in (a new one, or another than shown). A failed
 * request is not toasted: the page shows it in the turn, with its Retry (usePlaygroundSend).
 */
function useConversationChat(catalogId: string, settings: PlaygroundSettings, conversationId: string | undefined, onConversation: (id: string) => void) {
  const queryClient = useQueryClient();
  /** The conversation the chat holds: set as soon as a stream names it, so following the URL there reloads nothing. */
  const shown = useRef<string | undefined>(undefined);
  const exchanges: ExchangeRefs = { last: useRef<PlaygroundExchange>(undefined), resend: useRef<PlaygroundExchange>(undefined) };
  const chat = useChat<PlaygroundUIMessage>({
    transport: new DefaultChatTransport({
      api: `/api/catalogs/${encodeURIComponent(catalogId)}/playground`,
      prepareSendMessagesRequest: ({ messages }) => {
        const exchange = exchanges.resend.current ?? exchangeOf(messages);
        exchanges.resend.current = undefined;
        exchanges.last.current = exchange;
        return { body: { ...settings, conversationId: shown.current, ...exchange } };
      },
    }),
    // Once every call of the step has its result and some were simulated here, the turn goes on.
    sendAutomaticallyWhen: simulatedResultsComplete,
    onData: (part) => {
      if (part.type !== "data-conversation" || part.data.conversationId === shown.current) return;
      shown.current = part.data.conversationId;
      onConversation(part.data.conversationId);
    },
    onFinish: () => queryClient.invalidateQueries({ queryKey: conversationKeys.list(catalogId) }),
  });
  const { setMessages, stop } = chat;

  // Another conversation picked (a link, New, a reload): the chat shows it as stored.
  useEffect(() => {
    if (conversationId === shown.current) return;
    shown.current = conversationId;
    void stop();
    setMessages([]);
    if (!conversationId) return;
    fetchConversation(catalogId, conversationId).then(
      (stored) => shown.current === conversationId && setMessages(uiMessagesOf(stored.messages)),
      (error: Error) => toast.error(error.message),
    );
  }, [catalogId, conversationId, setMessages, stop]);
  return { chat, exchanges };
}

/** The chat's turns, those stopped here marked as the stored ones are; `stop` stops the last one. */
function useStoppedTurns(turns: ChatTurn[], stopChat: () => Promise<void>) {
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());
  return {
    turns: turns.map((turn) => (stopped.has(turn.key) ? { ...turn, stopped: true } : turn)),
    stop: () => {
      const last = turns.at(-1);
      if (last) setStopped((keys) => new Set(keys).add(last.key));
      void stopChat();
    },
  };
}

/** How far the last message has come: what grows while it streams. */
const progressOf = (messages: PlaygroundUIMessage[]) => (messages.length === 0 ? 0 : messages.length * 1e9 + JSON.stringify(messages.at(-1)?.parts).length);

export function Playground({ catalogId, agents, knownModels, mainModel, mainModelError, auxSelector, viewer }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const conversationId = params.get("conversation") ?? undefined;
  const settings = settingsOf(params, agents);
  const setParams = (change: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined || value === "") next.delete(key);
      else next.set(key, value);
    }
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };
  const { chat, exchanges } = useConversationChat(catalogId, settings, conversationId, (id) => setParams({ conversation: id }));
  const sending = usePlaygroundSend(chat, exchanges);

  const busy = chat.status === "submitted" || chat.status === "streaming";
  const { turns, stop } = useStoppedTurns(turnsOf(chat.messages), chat.stop);
  const pending = busy ? [] : pendingSimulatedCalls(turns.at(-1)?.answer);
  const follow = useFollowLatest(busy, progressOf(chat.messages));

  return (
    <div className="playground">
      <PlaygroundConversations
        catalogId={catalogId}
        pathname={pathname}
        conversationId={conversationId}
        viewer={viewer}
        onLeave={() => setParams({ conversation: undefined })}
      />
      <section className="stack" style={{ minWidth: 0 }}>
        <PlaygroundSettingsForm
          settings={settings}
          agents={agents}
          knownModels={knownModels}
          onChange={setParams}
          status={{ auxSelector, mainModel, mainModelError }}
        />
        <PlaygroundTurns
          catalogId={catalogId}
          turns={turns}
          busy={busy}
          hasMainModel={!!mainModel}
          failure={sending.failure && { ...sending.failure, retry: sending.retry }}
        />
        {pending.length > 0 && (
          <PendingResults
            calls={pending}
            onSubmit={async (results) => {
              // Client-side tool outputs: the last one completes the step, and the chat sends them (sendAutomaticallyWhen).
              for (const result of results) await chat.addToolOutput({ tool: result.toolName, toolCallId: result.toolCallId, output: result.output });
            }}
          />
        )}
        <div ref={follow.end} />
        <Composer
          ref={follow.composer}
          text={sending.draft}
          onText={sending.setDraft}
          disabled={busy || pending.length > 0}
          onSend={sending.send}
          onStop={busy && mainModel ? stop : undefined}
          onJump={follow.behind ? follow.jump : undefined}
        />
        {!mainModel && (
          <ToolSearchConsole
            catalogId={catalogId}
            settings={settings}
            conversationId={conversationId}
            onConversation={(id) => id !== conversationId && setParams({ conversation: id })}
          />
        )}
      </section>
    </div>
  );
}
