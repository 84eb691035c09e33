import "server-only";
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { decisions, evaluations } from "../tables";

export interface ToolUsage {
  /** Every tool a preselection chose, ToolSearch found or an evaluation case chose. */
  chosen: Set<string>;
  /** Decisions and evaluation runs in the window: with none, nothing can be said about use. */
  decisions: number;
  evaluations: number;
}

/** What chose which tools of a catalog since `since`: preselections, ToolSearch calls and evaluation runs. */
export async function toolsChosenSince(db: Db, catalogId: string, since: Date): Promise<ToolUsage> {
  const after = since.getTime();
  // Selected from the union with a named column, so that rows come back as objects on every driver.
  const names = await db.select({ name: sql<string | null>`name` }).from(sql`(
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
     WHERE ${evaluations.catalogId} = ${catalogId} AND ${evaluations.status} = 'done' AND ${evaluations.createdAt} >= ${after}) AS chosen_names`);
  const count = async (table: typeof decisions | typeof evaluations) =>
    (
      await db
        .select({ count: sql<number>`count(*)` })
        .from(table)
        .where(and(eq(table.catalogId, catalogId), gte(table.createdAt, since)))
    )[0].count;
  return {
    chosen: new Set(names.flatMap((row) => (typeof row.name === "string" ? [row.name] : []))),
    decisions: await count(decisions),
    evaluations: await count(evaluations),
  };
}
