import "server-only";
import type { Database, Statement } from "better-sqlite3";
import { type AnyColumn, getTableName, type SQL, sql } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { type Db, isPostgres, withSqlite } from "./client";

/**
 * Rows, or values of an IN list, per statement. SQLite binds at most 32,766 values per statement
 * (PostgreSQL 65,535) and a catalog may hold 50,000 tools: 500 rows of up to 14 columns stay far
 * below that limit.
 */
export const ROWS_PER_STATEMENT = 500;

/** `items` in consecutive slices of at most ROWS_PER_STATEMENT, one statement's worth each. */
export function chunksOf<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += ROWS_PER_STATEMENT) chunks.push(items.slice(start, start + ROWS_PER_STATEMENT));
  return chunks;
}

/**
 * A value of a bulk write as SQLite stores it (db/schema.ts): booleans as 0/1, times as epoch
 * milliseconds. node-postgres takes booleans and Dates as they are.
 */
const forSqlite = (value: unknown): unknown => (typeof value === "boolean" ? Number(value) : value instanceof Date ? value.getTime() : value);

/** Runs a statement on PostgreSQL, whose handle is typed as SQLite's query builder (see Db in db/client.ts). */
function executeOnPostgres(db: Db, query: SQL): Promise<unknown> {
  return (db as unknown as NodePgDatabase).execute(query);
}

/**
 * Inserts rows (values in the order of `columns`: text, numbers, booleans, Dates, null; JSON
 * already serialised) in multi-row INSERTs of ROWS_PER_STATEMENT rows. On SQLite each statement is
 * prepared once: for tens of thousands of rows several times quicker than the query builder, which
 * builds and prepares every statement anew.
 */
export async function chunkedInsert(db: Db, table: string, columns: readonly string[], rows: unknown[][]): Promise<void> {
  if (!isPostgres(db)) return withSqlite(db, (sqlite) => insertChunks(sqlite, table, columns, rows));
  const into = sql`INSERT INTO ${sql.identifier(table)} (${sql.join(
    columns.map((column) => sql.identifier(column)),
    sql`, `,
  )}) VALUES `;
  for (const chunk of chunksOf(rows))
    await executeOnPostgres(
      db,
      sql`${into}${sql.join(
        chunk.map((row) => sql`${row}`),
        sql`, `,
      )}`,
    );
}

/** chunkedInsert on a SQLite connection, inside work that already holds it. */
export function insertChunks(sqlite: Database, table: string, columns: readonly string[], rows: unknown[][]): void {
  const statements = new Map<number, Statement>();
  const row = `(${columns.map(() => "?").join(", ")})`;
  for (const chunk of chunksOf(rows)) {
    let statement = statements.get(chunk.length);
    if (!statement) {
      statement = sqlite.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array.from({ length: chunk.length }, () => row).join(", ")}`);
      statements.set(chunk.length, statement);
    }
    statement.run(chunk.flat().map(forSqlite));
  }
}

/**
 * Sets `columns` of many rows of one table, each row to its own values: rows are [key, ...values
 * in the order of `columns`] (as chunkedInsert's). On SQLite one prepared UPDATE per row; on
 * PostgreSQL an UPDATE … FROM (VALUES …) per ROWS_PER_STATEMENT rows, each value cast to its
 * column's type (VALUES alone would make them text).
 */
export async function chunkedUpdate(db: Db, key: AnyColumn, columns: readonly AnyColumn[], rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  if (!isPostgres(db)) {
    return withSqlite(db, (sqlite) => {
      const update = sqlite.prepare(`UPDATE ${getTableName(key.table)} SET ${columns.map((column) => `${column.name} = ?`).join(", ")} WHERE ${key.name} = ?`);
      for (const [id, ...values] of rows) update.run(...values.map(forSqlite), forSqlite(id));
    });
  }
  const typed = (column: AnyColumn) => sql`v.${sql.identifier(column.name)}::${sql.raw(column.getSQLType())}`;
  const set = sql.join(
    columns.map((column) => sql`${sql.identifier(column.name)} = ${typed(column)}`),
    sql`, `,
  );
  const names = sql.join(
    [key, ...columns].map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  for (const chunk of chunksOf(rows)) {
    const values = sql.join(
      chunk.map((row) => sql`${row}`),
      sql`, `,
    );
    await executeOnPostgres(db, sql`UPDATE ${key.table} SET ${set} FROM (VALUES ${values}) AS v(${names}) WHERE ${key} = ${typed(key)}`);
  }
}
