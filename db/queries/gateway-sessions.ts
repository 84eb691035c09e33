import "server-only";
import { and, asc, count, eq, gte, inArray, lt } from "drizzle-orm";
import type { Db } from "../client";
import type { GatewaySessionRow } from "../schema";
import { gatewayAnswers, gatewaySessions } from "../tables";

export type NewGatewaySession = Omit<GatewaySessionRow, "createdAt">;

/**
 * Records a session, then closes its owner's least recently used ones beyond `perOwner` (many MCP
 * clients never end their sessions): the ids of those closed.
 */
export async function createGatewaySession(db: Db, session: NewGatewaySession, perOwner: number): Promise<string[]> {
  await db.insert(gatewaySessions).values(session);
  const own = await db
    .select({ id: gatewaySessions.id })
    .from(gatewaySessions)
    .where(eq(gatewaySessions.owner, session.owner))
    .orderBy(asc(gatewaySessions.lastUsedAt), asc(gatewaySessions.createdAt));
  const closed = own
    .slice(0, Math.max(0, own.length - perOwner))
    .map((row) => row.id)
    .filter((id) => id !== session.id);
  if (closed.length > 0) await db.delete(gatewaySessions).where(inArray(gatewaySessions.id, closed));
  return closed;
}

export async function findGatewaySession(db: Db, id: string): Promise<GatewaySessionRow | undefined> {
  const [row] = await db.select().from(gatewaySessions).where(eq(gatewaySessions.id, id));
  return row;
}

export async function touchGatewaySession(db: Db, id: string, at: Date): Promise<void> {
  await db.update(gatewaySessions).set({ lastUsedAt: at }).where(eq(gatewaySessions.id, id));
}

export async function deleteGatewaySession(db: Db, id: string): Promise<void> {
  await db.delete(gatewaySessions).where(eq(gatewaySessions.id, id));
}

/** Ends the sessions unused since `before`: the ids of those ended. */
export async function deleteGatewaySessionsIdleSince(db: Db, before: Date): Promise<string[]> {
  const rows = await db.delete(gatewaySessions).where(lt(gatewaySessions.lastUsedAt, before)).returning({ id: gatewaySessions.id });
  return rows.map((row) => row.id);
}

/** Which of these sessions still exist, and (given `usedSince`) were used since then. */
export async function existingGatewaySessions(db: Db, ids: string[], usedSince?: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const existing = inArray(gatewaySessions.id, ids);
  const rows = await db
    .select({ id: gatewaySessions.id })
    .from(gatewaySessions)
    .where(usedSince ? and(existing, gte(gatewaySessions.lastUsedAt, usedSince)) : existing);
  return new Set(rows.map((row) => row.id));
}

/**
 * Keeps a client's answer for the instance that is waiting for it; false, keeping nothing, when the
 * session already has `max` waiting (answers nobody asked for must not pile up).
 */
export async function addGatewayAnswer(db: Db, sessionId: string, message: Record<string, unknown>, max = 32): Promise<boolean> {
  const [{ waiting }] = await db.select({ waiting: count() }).from(gatewayAnswers).where(eq(gatewayAnswers.sessionId, sessionId));
  if (waiting >= max) return false;
  await db.insert(gatewayAnswers).values({ sessionId, message });
  return true;
}

/** Takes (reads and deletes, at once) the answers kept for these sessions, oldest first. */
export async function takeGatewayAnswers(db: Db, sessionIds: string[]): Promise<{ sessionId: string; message: Record<string, unknown> }[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db
    .delete(gatewayAnswers)
    .where(inArray(gatewayAnswers.sessionId, sessionIds))
    .returning({ id: gatewayAnswers.id, sessionId: gatewayAnswers.sessionId, message: gatewayAnswers.message });
  return rows.sort((a, b) => a.id - b.id).map(({ sessionId, message }) => ({ sessionId, message }));
}
