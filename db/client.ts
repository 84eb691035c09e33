import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema>;

const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

/** Opens (creating if needed) a database file, or ":memory:", with WAL and a busy timeout, migrated. */
export function openDb(file: string): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return db;
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
