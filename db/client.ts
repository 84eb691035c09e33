import "server-only";
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

/** A connection with WAL, the busy timeout and foreign keys; `create`: the file (and its folder) may be new. */
function connect(file: string, create: boolean): Db {
  if (create && file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file, { fileMustExist: !create });
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma("foreign_keys = ON");
  return drizzle(sqlite, { schema });
}

/**
 * Opens a database file that `npm run db:migrate` migrated, with WAL and a busy timeout; a file
 * that is missing or lacks a migration of this release is refused with an error that says to run
 * it. ":memory:" opens a new database, migrated here: it is private to this connection, no other
 * step could migrate it.
 */
export function openDb(file: string): Db {
  if (file === ":memory:") return migrateDatabase(file);
  const target = path.resolve(file);
  let db: Db;
  try {
    db = connect(target, false);
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CANTOPEN") throw notMigrated(target, "does not exist");
    throw error;
  }
  const missing = missingMigrations(db);
  if (missing > 0) {
    db.$client.close();
    throw notMigrated(target, `lacks ${missing} of this release's migrations`);
  }
  return db;
}

/**
 * Creates the database file if needed and applies the migrations it lacks; returns it open. Run by
 * `npm run db:migrate` (scripts/migrate.ts), once, before any server or worker opens the file, so
 * that processes never race to migrate it.
 */
export function migrateDatabase(file: string): Db {
  const db = connect(file, true);
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return db;
}

/** How many of the migrations this release ships the database has not had (drizzle records each it applied). */
function missingMigrations(db: Db): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  const recorded = db.$client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!recorded) return journal.entries.length;
  const { last } = db.$client.prepare("SELECT max(created_at) AS last FROM __drizzle_migrations").get() as { last: number | null };
  return journal.entries.filter((entry) => last === null || entry.when > Number(last)).length;
}

function notMigrated(file: string, problem: string): Error {
  return new Error(`The database ${file} ${problem}: run \`npm run db:migrate\` (with the same TOOLSHED_DB) first.`);
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

/** The app's one connection, opened on first use so that `next build` never touches the file (see openDb). */
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
