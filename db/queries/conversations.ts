import { randomUUID } from "node:crypto";
import { and, asc, desc, eq } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import type { Db } from "../client";
import { conversationMessages, conversations, type ConversationRow } from "../schema";
import { requireCatalog } from "./guards";

export interface Conversation {
  id: string;
  catalogId: string;
  title: string;
  model: string;
  agent: string;
  mode: string | null;
  flags: string[];
  history: string[];
  createdAt: string;
  updatedAt: string;
}

function toConversation(row: ConversationRow): Conversation {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function createConversation(
  db: Db,
  input: { catalogId: string; model: string; agent: string; mode?: string; flags?: string[]; title?: string },
): Conversation {
  requireCatalog(db, input.catalogId);
  const row = db
    .insert(conversations)
    .values({ id: randomUUID(), catalogId: input.catalogId, model: input.model, agent: input.agent, mode: input.mode ?? null, flags: input.flags ?? [], title: input.title ?? "" })
    .returning()
    .get();
  return toConversation(row);
}

export function getConversation(db: Db, id: string, catalogId?: string): Conversation {
  const row = db.select().from(conversations).where(eq(conversations.id, id)).get();
  if (!row || (catalogId !== undefined && row.catalogId !== catalogId)) {
    throw notFound(`Conversation "${id}"${catalogId ? ` in catalog "${catalogId}"` : ""}`, "conversationId");
  }
  return toConversation(row);
}

/** The named conversation (which must belong to the catalog), or a new one for this model and agent. */
export function openConversation(
  db: Db,
  catalogId: string,
  id: string | undefined,
  start: { model: string; agent: string; mode?: string; flags?: string[]; title?: string },
): Conversation {
  return id ? getConversation(db, id, catalogId) : createConversation(db, { catalogId, ...start });
}

export function listConversations(db: Db, catalogId: string, limit = 100): Conversation[] {
  requireCatalog(db, catalogId);
  return db.select().from(conversations).where(eq(conversations.catalogId, catalogId)).orderBy(desc(conversations.updatedAt)).limit(limit).all().map(toConversation);
}

/** Adds names to the conversation's tool history, keeping first occurrences first. */
export function addToHistory(db: Db, id: string, names: string[]): string[] {
  return db.transaction((tx) => {
    const row = tx.select({ history: conversations.history }).from(conversations).where(eq(conversations.id, id)).get();
    if (!row) throw notFound(`Conversation "${id}"`, "conversationId");
    const history = [...new Set([...row.history, ...names])];
    tx.update(conversations).set({ history, updatedAt: new Date() }).where(eq(conversations.id, id)).run();
    return history;
  });
}

export function updateConversation(db: Db, id: string, changes: { title?: string; model?: string; agent?: string; mode?: string | null; flags?: string[] }): Conversation {
  if (changes.title !== undefined && changes.title.length > 200) throw new ToolshedError("bad_request", "A title is at most 200 characters.", "title");
  const row = db.update(conversations).set({ ...changes, updatedAt: new Date() }).where(eq(conversations.id, id)).returning().get();
  if (!row) throw notFound(`Conversation "${id}"`, "conversationId");
  return toConversation(row);
}

export function deleteConversation(db: Db, catalogId: string, id: string): void {
  const result = db.delete(conversations).where(and(eq(conversations.id, id), eq(conversations.catalogId, catalogId))).run();
  if (result.changes === 0) throw notFound(`Conversation "${id}"`, "conversationId");
}

export interface StoredMessage {
  id: number;
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  details: unknown;
  createdAt: string;
}

export function appendMessage(db: Db, conversationId: string, message: { role: StoredMessage["role"]; content: string; details?: unknown }): StoredMessage {
  const row = db
    .insert(conversationMessages)
    .values({ conversationId, role: message.role, content: message.content, details: message.details ?? null })
    .returning()
    .get();
  db.update(conversations).set({ updatedAt: new Date() }).where(eq(conversations.id, conversationId)).run();
  return { id: row.id, role: row.role, content: row.content, details: row.details, createdAt: row.createdAt.toISOString() };
}

export function listMessages(db: Db, conversationId: string): StoredMessage[] {
  return db
    .select()
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(asc(conversationMessages.id))
    .all()
    .map((row) => ({ id: row.id, role: row.role, content: row.content, details: row.details, createdAt: row.createdAt.toISOString() }));
}
