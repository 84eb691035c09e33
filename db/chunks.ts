import "server-only";
import type { Database, Statement } from "better-sqlite3";
import { type Db, withSqlite } from "./client";

/**
 * Rows, or values of an IN list, per statement. SQLite binds at most 32,766 values per statement
 * and a catalog may hold 50,000 tools: 500 rows of up to 14 columns stay far below that limit.
 */
export const ROWS_PER_STATEMENT = 500;

/** `items` in consecutive slices of at most ROWS_PER_STATEMENT, one statement's worth each. */
export function chunksOf<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += ROWS_PER_STATEMENT) chunks.push(items.slice(start, start + ROWS_PER_STATEMENT));
  return chunks;
}

/**
 * Inserts rows (values in the order of `columns`, JSON already serialised) in multi-row INSERTs of
 * ROWS_PER_STATEMENT rows, each statement prepared once: for tens of thousands of rows several
 * times quicker than the query builder, which builds and prepares every statement anew.
 */
export function chunkedInsert(db: Db, table: string, columns: readonly string[], rows: unknown[][]): Promise<void> {
  return withSqlite(db, (sqlite) => insertChunks(sqlite, table, columns, rows));
}

/** chunkedInsert on a connection, inside work that already holds it. */
export function insertChunks(sqlite: Database, table: string, columns: readonly string[], rows: unknown[][]): void {
  const statements = new Map<number, Statement>();
  const row = `(${columns.map(() => "?").join(", ")})`;
  for (const chunk of chunksOf(rows)) {
    let statement = statements.get(chunk.length);
    if (!statement) {
      statement = sqlite.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array.from({ length: chunk.length }, () => row).join(", ")}`);
      statements.set(chunk.length, statement);
    }
    statement.run(chunk.flat());
  }
}
