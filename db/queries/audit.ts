import "server-only";
import { isDeepStrictEqual } from "node:util";
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { describeActor } from "@/lib/auth/policy";
import { chunkedInsert, chunksOf } from "../chunks";
import type { Db } from "../client";
import { auditEntries, catalogs, users } from "../tables";
import type { AuditRow } from "../schema";

/** A transaction handle or the database itself: queries run the same on both. */
export type Tx = Db;

export interface ChangeEntry {
  subjectKind: "catalog" | "tool" | "model-rule" | "provider" | "agent" | "override" | "setting" | "prompt";
  subject: string;
  action: string;
  before?: unknown;
  after?: unknown;
}

/** Whether two values are the same as stored (JSON: key order and undefined properties aside): such a save changes nothing. */
export function isUnchanged(before: unknown, after: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(before ?? null)), JSON.parse(JSON.stringify(after ?? null)));
}

/**
 * Who makes a change: the name the audit log records (see actorOf) and, for a change that is not an
 * ordinary edit, the action its entries record instead of "update", "rename"… (a restore says which
 * version it brought back).
 */
export type ChangeAuthor = string | { actor: string; action: string };

/**
 * Bumps the catalog's revision once and writes an audit entry per change, inside the
 * caller's transaction, so a change and its record land together or not at all.
 */
export async function recordChanges(tx: Tx, catalogId: string, author: ChangeAuthor, entries: ChangeEntry[]): Promise<number> {
  const { actor, action } = typeof author === "string" ? { actor: author, action: undefined } : author;
  const [{ revision }] = await tx
    .update(catalogs)
    .set({ revision: sql`${catalogs.revision} + 1`, updatedAt: new Date() })
    .where(eq(catalogs.id, catalogId))
    .returning({ revision: catalogs.revision });
  for (const chunk of chunksOf(entries)) {
    await tx.insert(auditEntries).values(
      chunk.map((entry) => ({
        ...entry,
        action: action ?? entry.action,
        before: entry.before ?? null,
        after: entry.after ?? null,
        catalogId,
        revision,
        actor,
      })),
    );
  }
  return revision;
}

const AUDIT_COLUMNS = ["catalog_id", "revision", "subject_kind", "subject", "action", "actor", "before", "after"];
const stored = (snapshot: unknown) => (snapshot === undefined || snapshot === null ? null : JSON.stringify(snapshot));

/**
 * recordChanges for the tens of thousands of entries of one source's sync: the same revision bump
 * and rows, inserted in multi-row statements (chunkedInsert: the query builder takes seconds for
 * 50,000 on SQLite, all of them holding the write lock). Run it inside the caller's transaction.
 */
export async function recordManyChanges(db: Db, catalogId: string, actor: string, entries: ChangeEntry[]): Promise<number> {
  const revision = await recordChanges(db, catalogId, actor, []);
  await insertChangeRows(
    db,
    catalogId,
    revision,
    actor,
    entries.map((entry) => [entry.subjectKind, entry.subject, entry.action, stored(entry.before), stored(entry.after)]),
  );
  return revision;
}

/** An audit entry as insertChangeRows takes it, its snapshots already JSON text. */
export type ChangeRow = [subjectKind: ChangeEntry["subjectKind"], subject: string, action: string, before: string | null, after: string | null];

/** The audit rows of a revision recordChanges made, in multi-row statements (an import's plan holds them serialised). */
export function insertChangeRows(db: Db, catalogId: string, revision: number, actor: string, rows: ChangeRow[]): Promise<void> {
  return chunkedInsert(
    db,
    "audit_entries",
    AUDIT_COLUMNS,
    rows.map(([subjectKind, subject, action, before, after]) => [catalogId, revision, subjectKind, subject, action, actor, before, after]),
  );
}

/** A catalog's audit entries, newest first; a filter naming several subject kinds or subjects takes any of them. */
export async function listAudit(db: Db, catalogId: string, filter: { subjectKind?: string | string[]; subject?: string | string[]; limit?: number } = {}) {
  const anyOf = (column: typeof auditEntries.subjectKind | typeof auditEntries.subject, value: string | string[]) =>
    typeof value === "string" ? eq(column, value) : inArray(column, value);
  const conditions = [eq(auditEntries.catalogId, catalogId)];
  if (filter.subjectKind) conditions.push(anyOf(auditEntries.subjectKind, filter.subjectKind));
  if (filter.subject) conditions.push(anyOf(auditEntries.subject, filter.subject));
  return db
    .select()
    .from(auditEntries)
    .where(and(...conditions))
    .orderBy(desc(auditEntries.id))
    .limit(filter.limit ?? 200);
}

/** One audit entry of the catalog; undefined when it has none of that id. */
export async function findAuditEntry(db: Db, catalogId: string, id: number): Promise<AuditRow | undefined> {
  const [entry] = await db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.catalogId, catalogId), eq(auditEntries.id, id)));
  return entry;
}

/** Entries with `actorName`, who made each in words (describeActor): people by the name they have now. */
export async function withActorNames<T extends { actor: string }>(db: Db, entries: T[]): Promise<(T & { actorName: string })[]> {
  const emails = [...new Set(entries.map((entry) => entry.actor).filter((actor) => actor.includes("@")))];
  const people = emails.length === 0 ? [] : await db.select({ email: users.email, name: users.name }).from(users).where(inArray(users.email, emails));
  const names = new Map(people.map((person) => [person.email, person.name]));
  return entries.map((entry) => ({ ...entry, actorName: describeActor(entry.actor, names.get(entry.actor)) }));
}

const nameIn = (snapshot: unknown): unknown => (snapshot as { name?: unknown } | null)?.name;

/** Whether an entry changed a tool's name (a rename, or a restore that brought an earlier name back). */
function renames(entry: AuditRow): boolean {
  const [from, to] = [nameIn(entry.before), nameIn(entry.after)];
  return typeof from === "string" && typeof to === "string" && from !== to;
}

/**
 * A tool's history, newest first: the entries under its name and, across each rename into that
 * name, those under the name it had before, up to the rename. Earlier tools of the same name keep
 * their entries here, ended by their delete or by their rename away (a rename is recorded under
 * both names; where both records are in the history, only the one under the new name is shown).
 */
export async function listToolHistory(db: Db, catalogId: string, name: string, limit = 200): Promise<AuditRow[]> {
  const found = new Map<number, AuditRow>();
  const collect = async (subject: string, beforeId?: number): Promise<void> => {
    const conditions = [eq(auditEntries.catalogId, catalogId), eq(auditEntries.subjectKind, "tool"), eq(auditEntries.subject, subject)];
    if (beforeId !== undefined) conditions.push(lt(auditEntries.id, beforeId));
    for (const entry of await db
      .select()
      .from(auditEntries)
      .where(and(...conditions))
      .orderBy(desc(auditEntries.id))
      .limit(limit)) {
      if (found.has(entry.id)) continue;
      found.set(entry.id, entry);
      const previous = nameIn(entry.before);
      if (renames(entry) && typeof previous === "string" && previous !== subject) await collect(previous, entry.id);
    }
  };
  await collect(name);
  const entries = [...found.values()];
  const renamedInto = new Set(
    entries.filter((entry) => renames(entry) && nameIn(entry.after) === entry.subject).map((entry) => `${entry.revision}:${entry.subject}`),
  );
  const isRecordedTwice = (entry: AuditRow) =>
    renames(entry) && nameIn(entry.before) === entry.subject && renamedInto.has(`${entry.revision}:${String(nameIn(entry.after))}`);
  return entries
    .filter((entry) => !isRecordedTwice(entry))
    .sort((a, b) => b.id - a.id)
    .slice(0, limit);
}
