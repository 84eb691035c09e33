import "server-only";
import { and, count, eq, gte, sql } from "drizzle-orm";
import { isPostgres, type Db } from "../client";
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
  const preselections = sql`${decisions.catalogId} = ${catalogId} AND ${decisions.kind} = 'preselect' AND ${gte(decisions.createdAt, since)}`;
  const searches = sql`${decisions.catalogId} = ${catalogId} AND ${decisions.kind} = 'tool-search' AND ${gte(decisions.createdAt, since)}`;
  const runs = sql`${evaluations.catalogId} = ${catalogId} AND ${evaluations.status} = 'done' AND ${gte(evaluations.createdAt, since)}`;
  // PostgreSQL reads the JSON text with its path queries (lax: a missing or non-array field is no rows, as json_each makes it).
  const chosenNames = isPostgres(db)
    ? sql`
    SELECT jsonb_path_query(${decisions.result}::jsonb, '$.selected[*].name') #>> '{}' AS name FROM ${decisions} WHERE ${preselections}
    UNION
    SELECT jsonb_path_query(${decisions.result}::jsonb, '$.tools[*]') #>> '{}' FROM ${decisions} WHERE ${searches}
    UNION
    SELECT jsonb_path_query(${evaluations.cases}::jsonb, '$[*].chosen[*]') #>> '{}' FROM ${evaluations} WHERE ${runs}`
    : sql`
    SELECT json_extract(selected.value, '$.name') AS name
      FROM ${decisions}, json_each(${decisions.result}, '$.selected') AS selected WHERE ${preselections}
    UNION
    SELECT found.value FROM ${decisions}, json_each(${decisions.result}, '$.tools') AS found WHERE ${searches}
    UNION
    SELECT chosen.value
      FROM ${evaluations}, json_each(${evaluations.cases}) AS labelled, json_each(labelled.value, '$.chosen') AS chosen WHERE ${runs}`;
  // Selected from the union with a named column, so that rows come back as objects on every driver.
  const names = await db.select({ name: sql<string | null>`name` }).from(sql`(${chosenNames}) AS chosen_names`);
  const rowsSince = async (table: typeof decisions | typeof evaluations) =>
    (
      await db
        .select({ count: count() })
        .from(table)
        .where(and(eq(table.catalogId, catalogId), gte(table.createdAt, since)))
    )[0].count;
  return {
    chosen: new Set(names.flatMap((row) => (typeof row.name === "string" ? [row.name] : []))),
    decisions: await rowsSince(decisions),
    evaluations: await rowsSince(evaluations),
  };
}
