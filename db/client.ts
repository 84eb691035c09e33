import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema";
import { asConflict } from "./unique-conflicts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

/**
 * How long a statement waits for another connection's write lock before SQLITE_BUSY. Write
 * transactions begin immediately (see IMMEDIATE), so this wait is the only contention there is;
 * an import writes its tools in one short transaction (see db/queries/tool-import.ts).
 */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Every transaction that writes begins with `BEGIN IMMEDIATE`: it takes the write lock first and
 * waits for it (busy timeout) instead of starting as a reader and failing with SQLITE_BUSY when it
 * tries to write after another connection did. Pass it as `db.transaction(fn, IMMEDIATE)`.
 */
export const IMMEDIATE = { behavior: "immediate" } as const;

/**
 * Opens (creating if needed) a database file, or ":memory:", with WAL and a busy timeout, migrated.
 * `migrate: false` for a second connection to a database the process already opened (the import
 * worker).
 */
export function openDb(file: string, options: { migrate?: boolean } = {}): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma("foreign_keys = ON");
  const db = drizzle(sqlite, { schema });
  if (options.migrate !== false) migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return db;
}

/** The file a connection is open on, or undefined for an in-memory database (no other connection can reach it). */
export function fileOf(db: Db): string | undefined {
  const { name, memory } = db.$client;
  return memory || name === ":memory:" || name === "" ? undefined : path.resolve(name);
}

export function databaseFile(): string {
  return process.env.TOOLSHED_DB ?? "./data/toolshed.db";
}

const cache = globalThis as unknown as { toolshedDb?: Db };

/** The app's one connection, opened on first use so that `next build` never touches the file. */
export function getDb(): Db {
  cache.toolshedDb ??= openDb(databaseFile());
  return cache.toolshedDb;
}

/** The handle a transaction's callback gets. */
export type WriteTx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Runs `work` in a write transaction that begins immediately (see IMMEDIATE); inside another
 * transaction it is a savepoint of that one. A unique index refusing a write is a 409 conflict.
 */
export function writeTransaction<T>(db: Db, work: (tx: WriteTx) => T): T {
  try {
    return db.transaction(work, IMMEDIATE);
  } catch (error) {
    throw asConflict(error);
  }
}
