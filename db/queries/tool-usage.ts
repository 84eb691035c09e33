import "server-only";
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { decisions, evaluations } from "../schema";

export interface ToolUsage {
  /** Every tool a preselection chose, ToolSearch found or an evaluation case chose. */
  chosen: Set<string>;
  /** Decisions and evaluation runs in the window: with none, nothing can be said about use. */
  decisions: number;
  evaluations: number;
}

/** What chose which tools of a catalog since `since`: preselections, ToolSearch calls and evaluation runs. */
export function toolsChosenSince(db: Db, catalogId: string, since: Date): ToolUsage {
  const after = since.getTime();
  const names = db.all<{ name: string | null }>(sql`
    SELECT json_extract(selected.value, '$.name') AS name
      FROM ${decisions}, json_each(${decisions.result}, '$.selected') AS selected
     WHERE ${decisions.catalogId} = ${catalogId} AND ${decisions.kind} = 'preselect' AND ${decisions.createdAt} >= ${after}
    UNION
    SELECT found.value
      FROM ${decisions}, json_each(${decisions.result}, '$.tools') AS found
     WHERE ${decisions.catalogId} = ${catalogId} AND ${decisions.kind} = 'tool-search' AND ${decisions.createdAt} >= ${after}
    UNION
    SELECT chosen.value
      FROM ${evaluations}, json_each(${evaluations.cases}) AS labelled, json_each(labelled.value, '$.chosen') AS chosen
     WHERE ${evaluations.catalogId} = ${catalogId} AND ${evaluations.status} = 'done' AND ${evaluations.createdAt} >= ${after}`);
  const count = (table: typeof decisions | typeof evaluations) =>
    db
      .select({ count: sql<number>`count(*)` })
      .from(table)
      .where(and(eq(table.catalogId, catalogId), gte(table.createdAt, since)))
      .get()!.count;
  return {
    chosen: new Set(names.flatMap((row) => (typeof row.name === "string" ? [row.name] : []))),
    decisions: count(decisions),
    evaluations: count(evaluations),
  };
}
