import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { type ExtractTablesWithRelations, type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleBetterSqlite } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { SQLiteTransaction } from "drizzle-orm/sqlite-core";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core/db";
import { drizzle as drizzlePostgres, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { drizzle as drizzleProxy, type SqliteRemoteResult } from "drizzle-orm/sqlite-proxy";
import { Pool } from "pg";
import { inSpan, tracedStatement } from "@/lib/observability/tracing";
import { databaseUrl } from "./dialect";
import * as schema from "./schema";
import * as postgresSchema from "./schema-pg";
import { asConflict } from "./unique-conflicts";

type Schema = typeof schema;

/**
 * The data layer's handle: the same asynchronous query builder whichever database is behind it
 * (SQLite through Drizzle's proxy driver, or PostgreSQL through node-postgres, typed as the first:
 * the query modules use only what both builders have, on the tables of db/tables.ts). A
 * transaction's handle is one too, so every query function takes either.
 */
export type Db = BaseSQLiteDatabase<"async", SqliteRemoteResult, Schema>;

/** The handle a transaction's callback gets. */
export type WriteTx = SQLiteTransaction<"async", SqliteRemoteResult, Schema, ExtractTablesWithRelations<Schema>>;

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");
export const POSTGRES_MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations-pg");

/**
 * How long a statement waits for another connection's write lock before SQLITE_BUSY. Write
 * transactions begin immediately: they take the write lock first instead of starting as a reader
 * and failing with SQLITE_BUSY when they try to write after another connection did.
 */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * What this module knows of the handles it opened, kept on globalThis: Next bundles this module
 * into several chunks of one server, and a handle opened by one copy is used by the others.
 */
interface Registry {
  /** The SQLite connection behind each handle (for the few bulk paths that bypass the builder). */
  connections: WeakMap<object, Database.Database>;
  /** The same for the handles of transactions in progress. */
  transactionConnections: WeakMap<object, Database.Database>;
  transactionContext: AsyncLocalStorage<symbol>;
  holders: WeakMap<Database.Database, Holder>;
  statements: WeakMap<Database.Database, Map<string, Database.Statement>>;
  pools: WeakMap<object, Pool>;
  urls: WeakMap<object, string>;
  /** Handles (and their transactions') on PostgreSQL. */
  postgresHandles: WeakSet<object>;
}

const shared = globalThis as unknown as { toolshedDbRegistry?: Registry };
shared.toolshedDbRegistry ??= {
  connections: new WeakMap(),
  transactionConnections: new WeakMap(),
  transactionContext: new AsyncLocalStorage(),
  holders: new WeakMap(),
  statements: new WeakMap(),
  pools: new WeakMap(),
  urls: new WeakMap(),
  postgresHandles: new WeakSet(),
};
const { connections, transactionConnections, transactionContext, holders, statements, pools, urls, postgresHandles } = shared.toolshedDbRegistry;

/**
 * One SQLite connection is shared by every request of a process, and a transaction's callback is
 * asynchronous: while it awaits, another request's statement would land inside the transaction
 * (and be rolled back with it). So a transaction holds the connection: statements from any other
 * asynchronous context wait until it ends, as a pool of one connection would make them.
 */
interface Holder {
  context: symbol;
  released: Promise<void>;
}

async function waitForConnection(sqlite: Database.Database): Promise<void> {
  for (let holder = holders.get(sqlite); holder && holder.context !== transactionContext.getStore(); holder = holders.get(sqlite)) {
    await holder.released;
  }
}

/** Prepared statements per SQL text, per connection; bounded because IN lists make many texts. */
const STATEMENTS_PER_CONNECTION = 2_000;

function prepared(sqlite: Database.Database, text: string): Database.Statement {
  let cache = statements.get(sqlite);
  if (!cache) {
    cache = new Map();
    statements.set(sqlite, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    if (cache.size >= STATEMENTS_PER_CONNECTION) cache.clear();
    statement = sqlite.prepare(text);
    cache.set(text, statement);
  }
  return statement;
}

type Method = "run" | "all" | "values" | "get";

/**
 * Runs one statement for Drizzle's proxy driver: rows as arrays of values, in column order; a
 * write's result carries how many rows it changed (better-auth's adapter reads it).
 */
function execute(sqlite: Database.Database, text: string, params: unknown[], method: Method): { rows: unknown; changes?: number } {
  const statement = prepared(sqlite, text);
  if (method === "run" || !statement.reader) return { rows: [], changes: statement.run(...params).changes };
  statement.raw(true);
  return { rows: method === "get" ? statement.get(...params) : statement.all(...params) };
}

/** A connection with WAL, the busy timeout and foreign keys; `create`: the file (and its folder) may be new. */
function connect(file: string, create: boolean): Database.Database {
  if (create && file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file, { fileMustExist: !create });
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma("foreign_keys = ON");
  return sqlite;
}

/** A statement's span names its operation (SELECT, INSERT…), never its text or parameters. */
const operationOf = (text: string) => /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "SQL";

function handleOn(sqlite: Database.Database): Db {
  const db = drizzleProxy<Schema>(
    (text, params, method) =>
      tracedStatement(
        () => ({ name: `db ${operationOf(text)}`, attributes: { "db.system.name": "sqlite", "db.operation.name": operationOf(text) } }),
        async () => {
          await waitForConnection(sqlite);
          return execute(sqlite, text, params, method) as { rows: unknown[] };
        },
      ),
    { schema },
  );
  connections.set(db, sqlite);
  return db;
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
  let sqlite: Database.Database;
  try {
    sqlite = connect(target, false);
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CANTOPEN") throw notMigrated(target, "does not exist");
    throw error;
  }
  const missing = missingMigrations(sqlite);
  if (missing > 0) {
    sqlite.close();
    throw notMigrated(target, `lacks ${missing} of this release's migrations`);
  }
  return handleOn(sqlite);
}

/**
 * Creates the database file if needed and applies the migrations it lacks; returns it open. Run by
 * `npm run db:migrate` (scripts/migrate.ts), once, before any server or worker opens the file, so
 * that processes never race to migrate it.
 */
export function migrateDatabase(file: string): Db {
  const sqlite = connect(file, true);
  migrate(drizzleBetterSqlite(sqlite), { migrationsFolder: MIGRATIONS_FOLDER });
  return handleOn(sqlite);
}

/** How many of the migrations this release ships the database has not had (drizzle records each it applied). */
function missingMigrations(sqlite: Database.Database): number {
  const recorded = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!recorded) return migrationsAfter(MIGRATIONS_FOLDER, null);
  const { last } = sqlite.prepare("SELECT max(created_at) AS last FROM __drizzle_migrations").get() as { last: number | null };
  return migrationsAfter(MIGRATIONS_FOLDER, last);
}

/** How many migrations of a folder's journal come after the last one a database applied (null: none). */
function migrationsAfter(folder: string, last: number | string | null): number {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  return journal.entries.filter((entry) => last === null || entry.when > Number(last)).length;
}

function notMigrated(file: string, problem: string): Error {
  return new Error(`The database ${file} ${problem}: run \`npm run db:migrate\` (with the same TOOLSHED_DB) first.`);
}

/** PostgreSQL's codes for a table, or a schema, that does not exist. */
const MISSING_RELATION_CODES = new Set(["42P01", "3F000"]);

/**
 * Refuses a PostgreSQL database that lacks one of this release's migrations with an error that says
 * to run `npm run db:migrate`, as openDb refuses such a SQLite file (openPostgres opens a pool
 * without a query, so the server's start calls this). The error names the server and database,
 * never the URL's password.
 */
export async function assertMigrated(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  let last: string | null = null;
  try {
    const { rows } = await (db as unknown as PostgresDb).execute<{ last: string | null }>(
      sql`SELECT max(created_at) AS last FROM drizzle.__drizzle_migrations`,
    );
    last = rows[0]?.last ?? null;
  } catch (error) {
    if (!MISSING_RELATION_CODES.has(errorCode(error) ?? "")) throw error;
  }
  const missing = migrationsAfter(POSTGRES_MIGRATIONS_FOLDER, last);
  if (missing === 0) return;
  const url = new URL(urls.get(db) ?? "postgres://unknown/");
  throw new Error(
    `The PostgreSQL database ${url.pathname.slice(1)} on ${url.host} lacks ${missing} of this release's migrations: run \`npm run db:migrate\` (with the same TOOLSHED_DATABASE_URL) first.`,
  );
}

/** The SQLSTATE of a PostgreSQL error, which Drizzle wraps in its own (as its cause). */
function errorCode(error: unknown): string | undefined {
  return ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code;
}

/**
 * The SQLite connection behind a handle (or a transaction's), for bulk paths that bypass the
 * builder: inside a transaction they run on the connection it holds.
 */
export function sqliteOf(db: Db): Database.Database {
  const sqlite = connections.get(db) ?? transactionConnections.get(db);
  if (!sqlite) throw new Error("Not a database handle opened by db/client.ts.");
  return sqlite;
}

/**
 * Runs `work` on the SQLite connection behind `db` once no other context's transaction holds it:
 * the bulk paths that bypass the builder (inside a transaction, on the connection it holds).
 */
export async function withSqlite<T>(db: Db, work: (sqlite: Database.Database) => T): Promise<T> {
  const sqlite = sqliteOf(db);
  await waitForConnection(sqlite);
  return work(sqlite);
}

/** Closes the handle's connection (or pool). */
export async function closeDb(db: Db): Promise<void> {
  const pool = pools.get(db);
  if (pool) await pool.end();
  else sqliteOf(db).close();
}

/** Where another process or thread reaches the same database: its file or URL; undefined for an in-memory one (none can). */
export function locationOf(db: Db): DatabaseLocation | undefined {
  const url = urls.get(db);
  if (url) return { postgres: url };
  const { name, memory } = sqliteOf(db);
  return memory || name === ":memory:" || name === "" ? undefined : { sqlite: path.resolve(name) };
}

export type DatabaseLocation = { sqlite: string } | { postgres: string };

/** A handle on the database at a location: the import worker's own. */
export function openLocation(location: DatabaseLocation): Db {
  return "postgres" in location ? openPostgres(location.postgres) : openDb(location.sqlite);
}

export function databaseFile(): string {
  return process.env.TOOLSHED_DB ?? "./data/toolshed.db";
}

const cache = globalThis as unknown as { toolshedDb?: Db };

/** The app's one connection (or pool), opened on first use so that `next build` never touches the database (see openDb). */
export function getDb(): Db {
  const url = databaseUrl();
  cache.toolshedDb ??= url ? openPostgres(url) : openDb(databaseFile());
  return cache.toolshedDb;
}

/** Connections per instance to PostgreSQL. */
const POSTGRES_POOL_SIZE = 10;

type PostgresDb = NodePgDatabase<typeof postgresSchema>;
type PostgresTx = Parameters<Parameters<PostgresDb["transaction"]>[0]>[0];

/**
 * A pool on the PostgreSQL database at `url`, which `npm run db:migrate` migrated (with
 * TOOLSHED_DATABASE_URL set). Many instances may share it.
 */
export function openPostgres(url: string): Db {
  const pool = new Pool({ connectionString: url, max: POSTGRES_POOL_SIZE });
  // An idle client that loses its connection (a restart, a network cut) must not end the process.
  pool.on("error", (error) => console.error("PostgreSQL pool:", error.message));
  const db = drizzlePostgres(pool, { schema: postgresSchema });
  pools.set(db, pool);
  urls.set(db, url);
  postgresHandles.add(db);
  return db as unknown as Db;
}

/** The pool behind a PostgreSQL handle (isPostgres), for a library that queries through node-postgres itself. */
export function postgresPoolOf(db: Db): Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error("Not a PostgreSQL handle opened by db/client.ts.");
  return pool;
}

/** Whether the handle is on PostgreSQL (else SQLite): for the few statements the two write differently. */
export function isPostgres(db: Db): boolean {
  return postgresHandles.has(db);
}

/** Runs a raw statement on a PostgreSQL handle (isPostgres), which is typed as SQLite's query builder (see Db). */
export function executeOnPostgres(db: Db, query: SQL): Promise<unknown> {
  return (db as unknown as PostgresDb).execute(query);
}

/**
 * Runs `work` in a transaction that holds the connection (see Holder): `immediate` for writes,
 * `deferred` for a consistent read. Inside another transaction it is a savepoint of that one.
 */
/** A transaction, a span of its own when traced (on PostgreSQL its statements are not spans of their own). */
function transaction<T>(db: Db, behavior: "immediate" | "deferred", work: (tx: WriteTx) => Promise<T>): Promise<T> {
  const system = isPostgres(db) ? "postgresql" : "sqlite";
  return inSpan("db transaction", { "db.system.name": system, "toolshed.db.transaction": behavior === "immediate" ? "write" : "read" }, () =>
    isPostgres(db) ? postgresTransaction(db, behavior, work) : sqliteTransaction(db, behavior, work),
  );
}

async function sqliteTransaction<T>(db: Db, behavior: "immediate" | "deferred", work: (tx: WriteTx) => Promise<T>): Promise<T> {
  const sqlite = sqliteOf(db);
  const registered = (tx: WriteTx) => {
    transactionConnections.set(tx, sqlite);
    return work(tx);
  };
  if (transactionConnections.has(db)) return (db as WriteTx).transaction(registered);
  await waitForConnection(sqlite);
  // Called again, with the connection's handle, from inside this context's own transaction: part of it.
  if (holders.get(sqlite)) return work(db as WriteTx);
  let release = () => {};
  const context = Symbol("transaction");
  holders.set(sqlite, { context, released: new Promise<void>((resolve) => (release = resolve)) });
  try {
    return await transactionContext.run(context, () => db.transaction(registered, { behavior }));
  } finally {
    holders.delete(sqlite);
    release();
  }
}

/**
 * On PostgreSQL a write transaction is SERIALIZABLE, so that a check and the write it allows (a
 * name still free, a history position) hold across instances as they do under SQLite's single
 * writer; one that loses a race to another is run again from the start (its work only touches
 * the database). A read transaction sees one snapshot (REPEATABLE READ, read only).
 */
const SERIALIZATION_RETRIES = 8;
const RETRIED_CODES = new Set(["40001", "40P01"]);

async function postgresTransaction<T>(db: Db, behavior: "immediate" | "deferred", work: (tx: WriteTx) => Promise<T>): Promise<T> {
  const registered = (tx: PostgresTx) => {
    postgresHandles.add(tx);
    return work(tx as unknown as WriteTx);
  };
  // Inside a transaction: a savepoint of it.
  if (!pools.has(db)) return (db as unknown as PostgresTx).transaction(registered);
  const config =
    behavior === "deferred" ? ({ isolationLevel: "repeatable read", accessMode: "read only" } as const) : ({ isolationLevel: "serializable" } as const);
  for (let attempt = 1; ; attempt++) {
    try {
      return await (db as unknown as PostgresDb).transaction(registered, config);
    } catch (error) {
      if (!RETRIED_CODES.has(errorCode(error) ?? "") || attempt >= SERIALIZATION_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/** Runs `work` in a write transaction; a unique index refusing a write is a 409 conflict. */
export async function writeTransaction<T>(db: Db, work: (tx: WriteTx) => Promise<T>): Promise<T> {
  try {
    return await transaction(db, "immediate", work);
  } catch (error) {
    throw asConflict(error);
  }
}

/** Runs `work` in a read transaction: every read sees the same state. */
export function readTransaction<T>(db: Db, work: (tx: WriteTx) => Promise<T>): Promise<T> {
  return transaction(db, "deferred", work);
}
