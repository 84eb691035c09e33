import { randomUUID } from "node:crypto";
import { and, desc, eq, ne, isNotNull, sql, type SQL } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import type { Db } from "../client";
import { decisions, type DecisionRow } from "../schema";
import { requireCatalog } from "./guards";

export type NewDecision = Omit<typeof decisions.$inferInsert, "id" | "createdAt">;

export interface Decision extends Omit<DecisionRow, "createdAt"> {
  createdAt: string;
}

function toDecision(row: DecisionRow): Decision {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

export function recordDecision(db: Db, decision: NewDecision): Decision {
  return toDecision(db.insert(decisions).values({ ...decision, id: randomUUID() }).returning().get());
}

export function getDecision(db: Db, id: string): Decision {
  const row = db.select().from(decisions).where(eq(decisions.id, id)).get();
  if (!row) throw notFound(`Decision "${id}"`, "id");
  return toDecision(row);
}

export interface DecisionFilter {
  conversationId?: string;
  kind?: "preselect" | "tool-search";
  path?: "preselect" | "exact" | "semantic";
  withRejections?: boolean;
  withFallback?: boolean;
  limit?: number;
}

/** A catalog's decisions, newest first. */
export function listDecisions(db: Db, catalogId: string, filter: DecisionFilter = {}): Decision[] {
  requireCatalog(db, catalogId);
  const conditions: SQL[] = [eq(decisions.catalogId, catalogId)];
  if (filter.conversationId) conditions.push(eq(decisions.conversationId, filter.conversationId));
  if (filter.kind) conditions.push(eq(decisions.kind, filter.kind));
  if (filter.path) conditions.push(eq(decisions.path, filter.path));
  if (filter.withRejections) conditions.push(ne(decisions.rejected, sql`'[]'`));
  if (filter.withFallback) conditions.push(isNotNull(decisions.fallback), ne(decisions.fallback, sql`'null'`));
  return db
    .select()
    .from(decisions)
    .where(and(...conditions))
    .orderBy(desc(decisions.createdAt), desc(sql`rowid`))
    .limit(Math.min(filter.limit ?? 100, 500))
    .all()
    .map(toDecision);
}
