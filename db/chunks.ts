import "server-only";
import type { Database, Statement } from "better-sqlite3";
import { type SQL, sql } from "drizzle-orm";
import { type Db, executeOnPostgres, isPostgres, withSqlite } from "./client";

/**
 * Rows, or values of an IN list, per statement. SQLite binds at most 32,766 values per statement
 * (PostgreSQL 65,535) and a catalog may hold 50,000 tools: 500 rows of up to 14 columns stay far
 * below that limit.
 */
const ROWS_PER_STATEMENT = 500;

/** `items` in consecutive slices of at most ROWS_PER_STATEMENT, one statement's worth each. */
export function chunksOf<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += ROWS_PER_STATEMENT) chunks.push(items.slice(start, start + ROWS_PER_STATEMENT));
  return chunks;
}

/**
 * A value of a bulk write as SQLite stores it (db/schema.ts): booleans as 0/1, times as epoch
 * milliseconds.
 */
const forSqlite = (value: unknown): unknown => (typeof value === "boolean" ? Number(value) : value instanceof Date ? value.getTime() : value);

/**
 * Rows for a PostgreSQL statement, as rows of `table`'s own type (json_populate_recordset): one
 * JSON parameter per statement whose values arrive typed as the table's columns (booleans; Dates
 * as ISO text, read as timestamptz; JSON columns as their text). Building it costs a
 * JSON.stringify, not a bound parameter per value: about twice as quick for 50,000 tools.
 */
function recordsOf(table: string, columns: readonly string[], rows: unknown[][]): SQL {
  const records = rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index]])));
  return sql`json_populate_recordset(NULL::${sql.identifier(table)}, ${JSON.stringify(records)}::json)`;
}

const namesOf = (columns: readonly string[]) =>
  sql.join(
    columns.map((column) => sql.identifier(column)),
    sql`, `,
  );

/**
 * What an insert does with a row whose `key` columns match a stored row's: adds its `add` columns
 * to the stored row's (counters). A statement's rows must not share a key.
 */
export interface AddOnConflict {
  key: readonly string[];
  add: readonly string[];
}

/** The ON CONFLICT clause of an insert into `table` (names from the schema, never from a request). */
const conflictClause = (table: string, onConflict: AddOnConflict | undefined) =>
  onConflict
    ? ` ON CONFLICT (${onConflict.key.join(", ")}) DO UPDATE SET ${onConflict.add.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(", ")}`
    : "";

/**
 * Inserts rows (values in the order of `columns`: text, numbers, booleans, Dates, null; JSON
 * already serialised) ROWS_PER_STATEMENT at a time: on SQLite in multi-row INSERTs, each prepared
 * once (for tens of thousands of rows several times quicker than the query builder, which builds
 * and prepares every statement anew); on PostgreSQL as INSERT … SELECT of recordsOf. With
 * `onConflict`, a row whose key is stored adds to it instead.
 */
export async function chunkedInsert(db: Db, table: string, columns: readonly string[], rows: unknown[][], onConflict?: AddOnConflict): Promise<void> {
  if (!isPostgres(db)) return withSqlite(db, (sqlite) => insertChunks(sqlite, table, columns, rows, onConflict));
  for (const chunk of chunksOf(rows)) {
    await executeOnPostgres(
      db,
      sql`INSERT INTO ${sql.identifier(table)} (${namesOf(columns)}) SELECT ${namesOf(columns)} FROM ${recordsOf(table, columns, chunk)}${sql.raw(conflictClause(table, onConflict))}`,
    );
  }
}

/** chunkedInsert on a SQLite connection, inside work that already holds it. */
export function insertChunks(sqlite: Database, table: string, columns: readonly string[], rows: unknown[][], onConflict?: AddOnConflict): void {
  const statements = new Map<number, Statement>();
  const row = `(${columns.map(() => "?").join(", ")})`;
  for (const chunk of chunksOf(rows)) {
    let statement = statements.get(chunk.length);
    if (!statement) {
      const values = Array.from({ length: chunk.length }, () => row).join(", ");
      statement = sqlite.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values}${conflictClause(table, onConflict)}`);
      statements.set(chunk.length, statement);
    }
    statement.run(chunk.flat().map(forSqlite));
  }
}

/**
 * Sets `columns` of many rows of a table, each row to its own values: rows are [key, ...values in
 * the order of `columns`], valued as chunkedInsert's. On SQLite one prepared UPDATE per row; on
 * PostgreSQL an UPDATE … FROM recordsOf per ROWS_PER_STATEMENT rows.
 */
export async function chunkedUpdate(db: Db, table: string, key: string, columns: readonly string[], rows: unknown[][]): Promise<void> {
  if (!isPostgres(db)) {
    return withSqlite(db, (sqlite) => {
      const update = sqlite.prepare(`UPDATE ${table} SET ${columns.map((column) => `${column} = ?`).join(", ")} WHERE ${key} = ?`);
      for (const [id, ...values] of rows) update.run(...values.map(forSqlite), forSqlite(id));
    });
  }
  const target = sql.identifier(table);
  const set = sql.join(
    columns.map((column) => sql`${sql.identifier(column)} = r.${sql.identifier(column)}`),
    sql`, `,
  );
  for (const chunk of chunksOf(rows)) {
    const records = recordsOf(table, [key, ...columns], chunk);
    await executeOnPostgres(db, sql`UPDATE ${target} SET ${set} FROM ${records} AS r WHERE ${target}.${sql.identifier(key)} = r.${sql.identifier(key)}`);
  }
}
