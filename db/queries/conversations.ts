import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, lte, ne } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { writeTransaction, type Db } from "../client";
import { conversationMessages, conversations, conversationTools } from "../tables";
import type { ConversationRow } from "../schema";
import type { Tx } from "./audit";
import { violatesForeignKey } from "../unique-conflicts";
import { requireCatalog } from "./guards";

export interface Conversation {
  id: string;
  catalogId: string;
  title: string;
  model: string;
  agent: string;
  mode: string | null;
  flags: string[];
  /** Every tool selected or found earlier in the conversation, first occurrence first. */
  history: string[];
  /** Who started it (`user:<id>` or `token:<id>`), who may delete it besides editors; null for conversations older than owners. */
  owner: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Rows per INSERT statement: far below SQLite's limit on bound variables. */
const INSERT_CHUNK = 200;

function toConversation(row: ConversationRow, history: string[]): Conversation {
  return { ...row, history, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** The conversation's tool history, in the order the tools joined it. */
async function historyOf(db: Tx, conversationId: string): Promise<string[]> {
  const rows = await db
    .select({ name: conversationTools.name })
    .from(conversationTools)
    .where(eq(conversationTools.conversationId, conversationId))
    .orderBy(asc(conversationTools.id));
  return rows.map((row) => row.name);
}

/** Which of `names` the conversation's tool history holds. */
export async function heldTools(db: Db, conversationId: string, names: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ name: conversationTools.name })
    .from(conversationTools)
    .where(and(eq(conversationTools.conversationId, conversationId), inArray(conversationTools.name, names)));
  return new Set(rows.map((row) => row.name));
}

export async function createConversation(
  db: Db,
  input: { catalogId: string; model: string; agent: string; mode?: string; flags?: string[]; title?: string; owner?: string },
): Promise<Conversation> {
  // The catalog's foreign key says when it is gone: no read before every turn's conversation.
  const [row] = await db
    .insert(conversations)
    .values({
      id: randomUUID(),
      catalogId: input.catalogId,
      model: input.model,
      agent: input.agent,
      mode: input.mode ?? null,
      flags: input.flags ?? [],
      title: input.title ?? "",
      owner: input.owner ?? null,
    })
    .returning()
    .catch((error: unknown) => {
      throw violatesForeignKey(error) ? notFound(`Catalog "${input.catalogId}"`, "catalog") : error;
    });
  return toConversation(row, []);
}

export async function getConversation(db: Db, id: string, catalogId?: string): Promise<Conversation> {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  if (!row || (catalogId !== undefined && row.catalogId !== catalogId)) {
    throw notFound(`Conversation "${id}"${catalogId ? ` in catalog "${catalogId}"` : ""}`, "conversationId");
  }
  return toConversation(row, await historyOf(db, id));
}

/** The named conversation (which must belong to the catalog), or a new one for this model and agent, owned by `start.owner`. */
export async function openConversation(
  db: Db,
  catalogId: string,
  id: string | undefined,
  start: { model: string; agent: string; mode?: string; flags?: string[]; title?: string; owner: string },
): Promise<Conversation> {
  return id ? getConversation(db, id, catalogId) : createConversation(db, { catalogId, ...start });
}

export async function listConversations(db: Db, catalogId: string, limit = 100): Promise<Conversation[]> {
  await requireCatalog(db, catalogId);
  const rows = await db.select().from(conversations).where(eq(conversations.catalogId, catalogId)).orderBy(desc(conversations.updatedAt)).limit(limit);
  const histories = new Map<string, string[]>(rows.map((row) => [row.id, []]));
  if (rows.length > 0) {
    const entries = await db
      .select({ conversationId: conversationTools.conversationId, name: conversationTools.name })
      .from(conversationTools)
      .where(
        inArray(
          conversationTools.conversationId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(conversationTools.id));
    for (const entry of entries) histories.get(entry.conversationId)!.push(entry.name);
  }
  return rows.map((row) => toConversation(row, histories.get(row.id)!));
}

/**
 * Adds names to the conversation's tool history, keeping first occurrences first, and returns the
 * whole history. One row per name with a unique key, written in an immediate transaction: appends
 * from any number of connections at once all land, each name once.
 */
export async function addToHistory(db: Db, id: string, names: readonly string[]): Promise<string[]> {
  return writeTransaction(db, async (tx) => {
    if ((await tx.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, id)).limit(1)).length === 0) {
      throw notFound(`Conversation "${id}"`, "conversationId");
    }
    await appendHistory(tx, id, names);
    return historyOf(tx, id);
  });
}

/** addToHistory inside a transaction that already holds the conversation (a decision's, db/queries/decisions.ts). */
export async function appendHistory(tx: Tx, id: string, names: readonly string[]): Promise<void> {
  const fresh = [...new Set(names)];
  for (let start = 0; start < fresh.length; start += INSERT_CHUNK) {
    await tx
      .insert(conversationTools)
      .values(fresh.slice(start, start + INSERT_CHUNK).map((name) => ({ conversationId: id, name })))
      .onConflictDoNothing();
  }
  if (fresh.length > 0) await tx.update(conversations).set({ updatedAt: new Date() }).where(eq(conversations.id, id));
}

/**
 * Carries a tool's rename into the tool history of every conversation in the catalog, inside the
 * rename's transaction. A conversation that already holds the new name (an earlier tool of that
 * name) keeps that entry, in its place, and loses the old one.
 */
export async function renameToolInConversations(tx: Tx, catalogId: string, from: string, to: string): Promise<void> {
  const inCatalog = tx.select({ id: conversations.id }).from(conversations).where(eq(conversations.catalogId, catalogId));
  const holdingNewName = tx
    .select({ id: conversationTools.conversationId })
    .from(conversationTools)
    .where(and(eq(conversationTools.name, to), inArray(conversationTools.conversationId, inCatalog)));
  await tx.delete(conversationTools).where(and(eq(conversationTools.name, from), inArray(conversationTools.conversationId, holdingNewName)));
  await tx
    .update(conversationTools)
    .set({ name: to })
    .where(and(eq(conversationTools.name, from), inArray(conversationTools.conversationId, inCatalog)));
}

export async function updateConversation(
  db: Db,
  id: string,
  changes: { title?: string; model?: string; agent?: string; mode?: string | null; flags?: string[] },
): Promise<Conversation> {
  if (changes.title !== undefined && changes.title.length > 200) throw new ToolshedError("bad_request", "A title is at most 200 characters.", "title");
  const [row] = await db
    .update(conversations)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(conversations.id, id))
    .returning();
  if (!row) throw notFound(`Conversation "${id}"`, "conversationId");
  return toConversation(row, await historyOf(db, id));
}

export async function deleteConversation(db: Db, catalogId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.catalogId, catalogId)))
    .returning({ id: conversations.id });
  if (deleted.length === 0) throw notFound(`Conversation "${id}"`, "conversationId");
}

export interface StoredMessage {
  id: number;
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  details: unknown;
  createdAt: string;
}

export async function appendMessage(
  db: Db,
  conversationId: string,
  message: { role: StoredMessage["role"]; content: string; details?: unknown },
): Promise<StoredMessage> {
  const [row] = await db
    .insert(conversationMessages)
    .values({ conversationId, role: message.role, content: message.content, details: message.details ?? null })
    .returning();
  await db.update(conversations).set({ updatedAt: new Date() }).where(eq(conversations.id, conversationId));
  return { id: row.id, role: row.role, content: row.content, details: row.details, createdAt: row.createdAt.toISOString() };
}

/** Attaches what the playground shows beside a stored message (e.g. a user message's turn). */
export async function setMessageDetails(db: Db, conversationId: string, messageId: number, details: unknown): Promise<void> {
  const updated = await db
    .update(conversationMessages)
    .set({ details: details ?? null })
    .where(and(eq(conversationMessages.id, messageId), eq(conversationMessages.conversationId, conversationId)))
    .returning({ id: conversationMessages.id });
  if (updated.length === 0) throw notFound(`Message ${messageId} of conversation "${conversationId}"`, "messageId");
}

export async function listMessages(db: Db, conversationId: string): Promise<StoredMessage[]> {
  const rows = await db
    .select()
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(asc(conversationMessages.id));
  return rows.map((row) => ({ id: row.id, role: row.role, content: row.content, details: row.details, createdAt: row.createdAt.toISOString() }));
}

export interface TranscriptMessage {
  id: number;
  role: StoredMessage["role"];
  content: string;
}

/**
 * The conversation as a selector reads it: its stored messages that have text, oldest first, up
 * to and including message `throughId` when given. Decisions refer to a prefix of this instead of
 * copying it (see db/queries/decisions.ts).
 */
export async function listTranscript(db: Tx, conversationId: string, throughId?: number): Promise<TranscriptMessage[]> {
  const conditions = [eq(conversationMessages.conversationId, conversationId), ne(conversationMessages.content, "")];
  if (throughId !== undefined) conditions.push(lte(conversationMessages.id, throughId));
  return db
    .select({ id: conversationMessages.id, role: conversationMessages.role, content: conversationMessages.content })
    .from(conversationMessages)
    .where(and(...conditions))
    .orderBy(asc(conversationMessages.id));
}

/** Appends messages (inside the caller's transaction) and returns their ids, in order. */
export async function appendTranscript(tx: Tx, conversationId: string, messages: { role: StoredMessage["role"]; content: string }[]): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < messages.length; start += INSERT_CHUNK) {
    const rows = await tx
      .insert(conversationMessages)
      .values(messages.slice(start, start + INSERT_CHUNK).map((message) => ({ conversationId, role: message.role, content: message.content, details: null })))
      .returning({ id: conversationMessages.id });
    // Ids are handed out in the order of the rows; RETURNING may list them in any order.
    ids.push(...rows.map((row) => row.id).sort((a, b) => a - b));
  }
  if (ids.length > 0) await tx.update(conversations).set({ updatedAt: new Date() }).where(eq(conversations.id, conversationId));
  return ids;
}
