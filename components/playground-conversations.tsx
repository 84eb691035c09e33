"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { toast } from "sonner";
import { type Access, mayDeleteConversation } from "@/lib/auth/policy";
import { conversationKeys, fetchConversations } from "./api-client";
import { ConfirmButton } from "./confirm-button";

interface Props {
  catalogId: string;
  /** The playground's path: a conversation's link opens it there with its model and agent. */
  pathname: string;
  conversationId?: string;
  /** Who is looking (lib/auth/policy.ts principalKey) and their access: the Delete button shows only where they may delete. */
  viewer: { key: string; access: Access };
  /** New, or the conversation shown was deleted: the chat starts empty. */
  onLeave: () => void;
}

/** The catalog's conversations, the one shown marked; New starts another. */
export function PlaygroundConversations({ catalogId, pathname, conversationId, viewer, onLeave }: Props) {
  const queryClient = useQueryClient();
  const conversations = useQuery({ queryKey: conversationKeys.list(catalogId), queryFn: () => fetchConversations(catalogId) });
  const remove = async (id: string) => {
    const response = await fetch(`/api/catalogs/${encodeURIComponent(catalogId)}/conversations/${id}`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
    });
    if (!response.ok) return void toast.error("Could not delete the conversation");
    toast.success("Conversation deleted");
    if (id === conversationId) onLeave();
    void queryClient.invalidateQueries({ queryKey: conversationKeys.list(catalogId) });
  };
  return (
    <aside className="panel stack" data-testid="conversations">
      <div className="spread">
        <h3 style={{ margin: 0 }}>Conversations</h3>
        <button type="button" className="small-button" onClick={onLeave} data-testid="new-conversation">
          New
        </button>
      </div>
      {conversations.data?.length === 0 && <p className="faint small">None yet: send a message.</p>}
      <ul className="conversation-list">
        {conversations.data?.map((item) => (
          <li key={item.id} className={item.id === conversationId ? "current" : undefined}>
            <Link
              href={`${pathname}?conversation=${item.id}&model=${encodeURIComponent(item.model)}&agent=${encodeURIComponent(item.agent)}`}
              data-testid="conversation-link"
            >
              {item.title || "Untitled"}
            </Link>
            <div className="faint small">
              {item.model} · {item.agent} · {item.history.length} tool{item.history.length === 1 ? "" : "s"} in history
            </div>
            {mayDeleteConversation(viewer, item.owner) && (
              <ConfirmButton
                label="Delete"
                className="ghost small-button danger"
                title="Delete this conversation?"
                body="Its messages go; its recorded decisions stay in the log."
                confirmLabel="Delete"
                onConfirm={() => void remove(item.id)}
              />
            )}
          </li>
        ))}
      </ul>
    </aside>
  );
}
