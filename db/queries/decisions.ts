import "server-only";
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import type { DecisionKind, DecisionOutcome, DecisionPath } from "@/lib/selection/types";
import { isPostgres, writeTransaction, type Db } from "../client";
import { decisions } from "../tables";
import type { DecisionRow } from "../schema";
import type { Tx } from "./audit";
import { appendHistory, appendTranscript, listTranscript, type StoredMessage } from "./conversations";
import { askedContains, askedText, shownAsked, withOutcome } from "./decision-asked";
import { requireCatalog } from "./guards";

export type NewDecision = Omit<typeof decisions.$inferInsert, "id" | "createdAt">;

export interface Decision extends Omit<DecisionRow, "createdAt"> {
  createdAt: string;
}

/**
 * A decision as the list gives it: without its input and raw selector output (the detail has
 * them), with what it was asked (a query, the last user message, a call's tool), cut at 500 characters.
 */
export type DecisionSummary = Omit<Decision, "input" | "raw"> & { asked: string | null };

/**
 * Where a decision's messages are: the first `count` messages of its conversation's transcript
 * (db/queries/conversations.ts `listTranscript`), up to message `through`; the input's own
 * `messages` follow them. Stored instead of a copy of the conversation, which every turn would
 * otherwise store again.
 */
interface TranscriptRef {
  through: number;
  count: number;
}

interface Message {
  role: StoredMessage["role"];
  content: string;
}

const ROLES = new Set(["user", "assistant", "system", "tool"]);

function messagesOf(input: unknown): Message[] | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  const messages = (input as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return undefined;
  const valid = messages.every(
    (message) => message !== null && typeof message === "object" && ROLES.has((message as Message).role) && typeof (message as Message).content === "string",
  );
  return valid ? (messages as Message[]) : undefined;
}

/**
 * Moves a decision's messages out of its input: the ones its conversation already holds (its
 * transcript is a prefix of them) are referred to, the rest are appended to the conversation and
 * referred to as well. When the transcript is not a prefix (the caller sent another history), the
 * messages stay in the input, as they were.
 */
async function compactInput(tx: Tx, conversationId: string | null | undefined, input: unknown): Promise<{ input: unknown; appended: number[] }> {
  const messages = messagesOf(input);
  if (!conversationId || !messages || messages.length === 0) return { input, appended: [] };
  const stored = await listTranscript(tx, conversationId);
  const isPrefix =
    stored.length <= messages.length && stored.every((row, index) => row.role === messages[index].role && row.content === messages[index].content);
  if (!isPrefix) return { input, appended: [] };
  const rest = messages.slice(stored.length);
  // A message without text is not part of a transcript: such a tail stays in the input.
  const appended = rest.every((message) => message.content !== "") ? await appendTranscript(tx, conversationId, rest) : [];
  const count = stored.length + appended.length;
  if (count === 0) return { input, appended };
  const through = appended.at(-1) ?? stored.at(-1)!.id;
  const transcript: TranscriptRef = { through, count };
  return { input: { ...(input as object), messages: messages.slice(count), transcript }, appended };
}

/**
 * The input as it was recorded: the referred messages are read back from the conversation. When
 * they are gone (the conversation was deleted), `messages` holds only what the input kept and
 * `messagesUnavailable` says how many are missing.
 */
async function hydrateInput(db: Db, row: DecisionRow): Promise<unknown> {
  const input = row.input as { messages?: Message[]; transcript?: TranscriptRef } | null;
  if (!input || typeof input !== "object" || !input.transcript) return row.input;
  const { through, count } = input.transcript;
  const rows = row.conversationId ? await listTranscript(db, row.conversationId, through) : [];
  const kept = input.messages ?? [];
  if (rows.length !== count) return { ...input, messages: kept, messagesUnavailable: count };
  return { ...input, messages: [...rows.map(({ role, content }) => ({ role, content })), ...kept] };
}

function toDecision(row: DecisionRow): Decision {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * Logs a decision. Its input's `messages` are not copied when its conversation holds them: the
 * decision refers to them, and messages the conversation does not have yet are appended to it
 * (their ids are returned, the last message's last). `chosen`, the tools the decision put before
 * the model, join the conversation's tool history. One immediate transaction, so concurrent turns
 * of one conversation cannot interleave. Its usage is counted by the caller (app/_services/usage.ts),
 * in rollups that outlive it.
 */
export async function recordDecision(db: Db, decision: NewDecision, chosen?: readonly string[]): Promise<Decision & { appendedMessageIds: number[] }> {
  return writeTransaction(db, async (tx) => {
    const { input, appended } = await compactInput(tx, decision.conversationId, decision.input);
    const [row] = await tx
      .insert(decisions)
      .values({ ...decision, input, id: randomUUID() })
      .returning();
    if (chosen && decision.conversationId) await appendHistory(tx, decision.conversationId, chosen);
    return { ...toDecision({ ...row, input: decision.input }), appendedMessageIds: appended };
  });
}

/** One decision with everything it recorded, its messages included. */
export async function getDecision(db: Db, id: string): Promise<Decision> {
  const [row] = await db.select().from(decisions).where(eq(decisions.id, id)).limit(1);
  if (!row) throw notFound(`Decision "${id}"`, "id");
  return toDecision({ ...row, input: await hydrateInput(db, row) });
}

export interface DecisionFilter {
  conversationId?: string;
  kind?: DecisionKind;
  path?: DecisionPath;
  withRejections?: boolean;
  withFallback?: boolean;
  /** Decisions about this tool: its calls, and the preselections and ToolSearch calls that chose it. */
  tool?: string;
  /** Decisions whose question (query, last user message, call's tool) contains this text, whatever its case. */
  asked?: string;
  /** Decisions made by this selector; "none" for those made by none (exact names, gateway calls). */
  selector?: string;
  outcome?: DecisionOutcome;
  /** Page size: 50 by default, at most 500. */
  limit?: number;
  /** Where the previous page ended (its `nextCursor`). */
  cursor?: string;
}

const DECISION_PAGE_DEFAULT = 50;
const DECISION_PAGE_MAX = 500;

interface Position {
  createdAt: number;
  rowid: number;
}

function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.rowid])).toString("base64url");
}

function decodeCursor(cursor: string): Position {
  try {
    const [createdAt, rowid] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof createdAt === "number" && Number.isFinite(createdAt) && Number.isSafeInteger(rowid)) return { createdAt, rowid: rowid as number };
  } catch {
    // Reported below.
  }
  throw new ToolshedError("bad_request", "This cursor is not one a decisions page gave: start again without it.", "cursor");
}

/** Newest first; rowid breaks ties between decisions of the same millisecond. */
const rowid = sql<number>`${decisions}.rowid`.mapWith(Number);
const newestFirst = [desc(decisions.createdAt), sql`${rowid} DESC`];

function olderThan(position: Position): SQL {
  const createdAt = new Date(position.createdAt);
  return or(lt(decisions.createdAt, createdAt), and(eq(decisions.createdAt, createdAt), sql`${rowid} < ${position.rowid}`))!;
}

/**
 * The result as the list gives it. Decisions recorded before the candidate count replaced the list
 * still carry every name: SQLite drops them as it reads (json_remove); PostgreSQL, which stores
 * JSON as text and has no such function for it, after.
 */
function resultWithoutCandidates(db: Db): SQL<string> {
  return isPostgres(db) ? sql<string>`${decisions.result}` : sql<string>`json_remove(${decisions.result}, '$.candidates')`;
}

function parseResult(text: string): unknown {
  const result = JSON.parse(text) as unknown;
  if (result === null || typeof result !== "object" || !("candidates" in result)) return result;
  const { candidates: _candidates, ...rest } = result;
  return rest;
}

/**
 * Decisions about a tool: a call of it, a preselection that chose it, a ToolSearch call that found
 * it. Read from the JSON of each of the catalog's decisions the other filters leave: fine for a page
 * of the decision log, never run on a hot route.
 */
function aboutTool(db: Db, tool: string): SQL {
  if (isPostgres(db)) {
    const name = sql`jsonb_build_object('n', ${tool}::text)`;
    return sql`((${decisions.kind} = 'call' AND ${decisions.input}::jsonb ->> 'tool' = ${tool})
      OR (${decisions.kind} = 'preselect' AND jsonb_path_exists(${decisions.result}::jsonb, '$.selected[*].name ? (@ == $n)', ${name}))
      OR (${decisions.kind} = 'tool-search' AND jsonb_path_exists(${decisions.result}::jsonb, '$.tools[*] ? (@ == $n)', ${name})))`;
  }
  return sql`((${decisions.kind} = 'call' AND json_extract(${decisions.input}, '$.tool') = ${tool})
    OR (${decisions.kind} = 'preselect' AND EXISTS (SELECT 1 FROM json_each(${decisions.result}, '$.selected') AS chosen WHERE json_extract(chosen.value, '$.name') = ${tool}))
    OR (${decisions.kind} = 'tool-search' AND EXISTS (SELECT 1 FROM json_each(${decisions.result}, '$.tools') AS found WHERE found.value = ${tool})))`;
}

export interface DecisionPage {
  decisions: DecisionSummary[];
  /** Pass it as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** A page of a catalog's decisions, newest first, without their heavy fields. */
export async function pageDecisions(db: Db, catalogId: string, filter: DecisionFilter = {}): Promise<DecisionPage> {
  await requireCatalog(db, catalogId);
  const limit = Math.max(1, Math.min(filter.limit ?? DECISION_PAGE_DEFAULT, DECISION_PAGE_MAX));
  const conditions: SQL[] = [eq(decisions.catalogId, catalogId)];
  if (filter.conversationId) conditions.push(eq(decisions.conversationId, filter.conversationId));
  if (filter.kind) conditions.push(eq(decisions.kind, filter.kind));
  if (filter.path) conditions.push(eq(decisions.path, filter.path));
  if (filter.withRejections) conditions.push(ne(decisions.rejected, sql`'[]'`));
  if (filter.withFallback) conditions.push(isNotNull(decisions.fallback), ne(decisions.fallback, sql`'null'`));
  if (filter.tool) conditions.push(aboutTool(db, filter.tool));
  if (filter.asked) conditions.push(askedContains(db, filter.asked));
  if (filter.selector) conditions.push(filter.selector === "none" ? isNull(decisions.selector) : eq(decisions.selector, filter.selector));
  if (filter.outcome) conditions.push(withOutcome(db, filter.outcome));
  if (filter.cursor) conditions.push(olderThan(decodeCursor(filter.cursor)));
  const rows = await db
    .select({
      rowid,
      id: decisions.id,
      catalogId: decisions.catalogId,
      conversationId: decisions.conversationId,
      revision: decisions.revision,
      kind: decisions.kind,
      path: decisions.path,
      model: decisions.model,
      agent: decisions.agent,
      mode: decisions.mode,
      flags: decisions.flags,
      selector: decisions.selector,
      fallback: decisions.fallback,
      result: resultWithoutCandidates(db),
      asked: askedText(db),
      rejected: decisions.rejected,
      latencyMs: decisions.latencyMs,
      tokens: decisions.tokens,
      createdAt: decisions.createdAt,
    })
    .from(decisions)
    .where(and(...conditions))
    .orderBy(...newestFirst)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = rows.length > limit ? page.at(-1)! : undefined;
  return {
    decisions: page.map(({ rowid: _rowid, result, createdAt, asked, ...row }) => ({
      ...row,
      asked: shownAsked(asked),
      result: parseResult(result),
      createdAt: createdAt.toISOString(),
    })),
    nextCursor: last ? encodeCursor({ createdAt: last.createdAt.getTime(), rowid: last.rowid }) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Retention

/** Where a catalog's newest `keep` decisions end: everything older than this position goes. */
export async function retentionBoundary(db: Db, catalogId: string, keep: number): Promise<Position | undefined> {
  const [row] = await db
    .select({ createdAt: decisions.createdAt, rowid })
    .from(decisions)
    .where(eq(decisions.catalogId, catalogId))
    .orderBy(...newestFirst)
    .limit(1)
    .offset(keep - 1);
  return row && { createdAt: row.createdAt.getTime(), rowid: row.rowid };
}

/**
 * Deletes at most `limit` of a catalog's decisions that were made before `before` (ms since the
 * epoch) or that lie past `boundary` (see retentionBoundary); returns how many it deleted. Small
 * batches keep each write short: the caller repeats until fewer than `limit` go.
 */
export async function deleteOldDecisions(db: Db, catalogId: string, rule: { before?: number; boundary?: Position }, limit: number): Promise<number> {
  const expired: SQL[] = [];
  if (rule.before !== undefined) expired.push(lt(decisions.createdAt, new Date(rule.before)));
  if (rule.boundary) expired.push(olderThan(rule.boundary));
  if (expired.length === 0) return 0;
  const deleted = await db
    .delete(decisions)
    .where(sql`${rowid} IN (SELECT rowid FROM ${decisions} WHERE ${decisions.catalogId} = ${catalogId} AND (${sql.join(expired, sql` OR `)}) LIMIT ${limit})`)
    .returning({ id: decisions.id });
  return deleted.length;
}

/**
 * What a conversation's decisions offered: the tools its preselections chose, and those its
 * ToolSearch calls found, each with the query of the latest search that found it.
 */
export async function conversationFinds(
  db: Db,
  catalogId: string,
  conversationId: string,
): Promise<{ preselected: Set<string>; searched: Map<string, string> }> {
  const rows = await db
    .select({ kind: decisions.kind, input: decisions.input, result: decisions.result })
    .from(decisions)
    .where(and(eq(decisions.catalogId, catalogId), eq(decisions.conversationId, conversationId), inArray(decisions.kind, ["preselect", "tool-search"])))
    .orderBy(decisions.createdAt);
  const preselected = new Set<string>();
  const searched = new Map<string, string>();
  for (const { kind, input, result } of rows) {
    const value = (result ?? {}) as { selected?: { name?: unknown }[]; tools?: unknown[] };
    if (kind === "preselect") for (const tool of value.selected ?? []) if (typeof tool?.name === "string") preselected.add(tool.name);
    const query = (input as { query?: unknown } | null)?.query;
    if (kind === "tool-search" && typeof query === "string") for (const name of value.tools ?? []) if (typeof name === "string") searched.set(name, query);
  }
  return { preselected, searched };
}
