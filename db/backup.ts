import "server-only";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { ToolshedError } from "@/lib/errors";
import { closeDb, MIGRATIONS_FOLDER, migrateDatabase } from "./client";

/**
 * Backups of the SQLite database, and their restore (scripts/toolshed.ts: `toolshed backup`,
 * `toolshed restore`). On PostgreSQL, pg_dump and pg_restore do both.
 */

/** How long a backup or restore waits for another connection's lock before it gives up. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Pages copied per step of the online backup: all of them. Between steps another connection's
 * write makes SQLite start the copy again, so a server that keeps writing could keep a stepped
 * backup from ever finishing; one step reads one snapshot, and a writer in WAL mode is not held up.
 */
const ALL_PAGES = 0x7fffffff;

const exists = (file: string) => fs.existsSync(file);

/**
 * Copies the database at `source` to `out` while servers keep using it: one consistent snapshot
 * (better-sqlite3's online backup), written beside `out` and renamed into place once checked, as
 * a single file (no WAL) that opens on its own. An existing `out` is replaced only with `force`;
 * its folder is made if needed.
 */
export async function backupSqlite(source: string, out: string, { force = false } = {}): Promise<{ bytes: number }> {
  const [from, to] = [path.resolve(source), path.resolve(out)];
  if (from === to) throw new ToolshedError("bad_request", "The backup must go to another file than the database itself.", "out");
  if (exists(to) && !force) throw new ToolshedError("conflict", `${to} exists: pass --force to replace it.`, "out");
  if (!exists(from)) throw new ToolshedError("not_found", `The database ${from} does not exist.`);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const partial = `${to}.partial-${process.pid}`;
  const sqlite = new Database(from, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    describeToolshedDatabase(sqlite, from);
    await sqlite.backup(partial, { progress: () => ALL_PAGES });
    asSingleCheckedFile(partial);
    fs.renameSync(partial, to);
  } finally {
    sqlite.close();
    fs.rmSync(partial, { force: true });
  }
  return { bytes: fs.statSync(to).size };
}

/** Leaves the copy in rollback-journal mode (one file, nothing beside it) after SQLite's own check of it. */
function asSingleCheckedFile(file: string): void {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
    const check = copy.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new Error(`The copy ${file} fails SQLite's check: ${String(check)}`);
  } finally {
    copy.close();
  }
}

interface MigrationLevel {
  /** How many of this build's migrations the database has. */
  applied: number;
  /** How many it lacks (restoring it applies them). */
  missing: number;
}

/**
 * Where a file stands as a Toolshed database: refuses one that is not (no migration record, no
 * catalogs), or that a newer build migrated (a migration this build does not know).
 */
function describeToolshedDatabase(sqlite: Database.Database, file: string): MigrationLevel {
  const tables = new Set((sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((table) => table.name));
  if (!tables.has("__drizzle_migrations") || !tables.has("catalogs")) {
    throw new ToolshedError("bad_request", `${file} is not a Toolshed database: it has no migration record or no catalogs.`);
  }
  const known = new Set(readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.folderMillis));
  const recorded = (sqlite.prepare("SELECT created_at AS at FROM __drizzle_migrations").all() as { at: number | string }[]).map((row) => Number(row.at));
  const unknown = recorded.filter((at) => !known.has(at));
  if (unknown.length > 0) {
    throw new ToolshedError(
      "bad_request",
      `${file} has ${unknown.length} migration(s) this build does not know (a newer Toolshed made it): restore it with that version or a later one.`,
    );
  }
  const applied = new Set(recorded);
  return { applied: applied.size, missing: [...known].filter((at) => !applied.has(at)).length };
}

/**
 * Puts the database at `backup` in place of the one at `target`, which no server or worker may
 * have open (refused if one does): the file is checked to be a Toolshed database this build
 * knows, copied, and migrated forward if older; the previous database (with its WAL) is kept as
 * `<target>.before-restore`, which is replaced only with `force`.
 */
export async function restoreSqlite(backup: string, target: string, { force = false } = {}): Promise<MigrationLevel & { previous: string | null }> {
  const [from, to] = [path.resolve(backup), path.resolve(target)];
  const previous = `${to}.before-restore`;
  if (from === to) throw new ToolshedError("bad_request", "The backup to restore must be another file than the database itself.", "from");
  if (!exists(from)) throw new ToolshedError("not_found", `${from} does not exist.`, "from");
  if (exists(to) && exists(previous) && !force) {
    throw new ToolshedError("conflict", `${previous} exists (an earlier restore's): move it away, or pass --force to replace it.`);
  }
  const staging = `${to}.restoring-${process.pid}`;
  let level: MigrationLevel;
  try {
    level = await copyChecked(from, staging);
    // Brings an older backup to this build's schema, as `npm run db:migrate` would.
    await closeDb(migrateDatabase(staging));
    asSingleCheckedFile(staging);
    const kept = exists(to) ? setAside(to, previous) : null;
    fs.renameSync(staging, to);
    return { ...level, previous: kept };
  } finally {
    fs.rmSync(staging, { force: true });
    for (const suffix of ["-wal", "-shm", "-journal"]) fs.rmSync(`${staging}${suffix}`, { force: true });
  }
}

/** Copies a Toolshed database (with what its WAL holds) to `to`, refusing any other file. */
async function copyChecked(from: string, to: string): Promise<MigrationLevel> {
  let sqlite: Database.Database;
  try {
    sqlite = new Database(from, { fileMustExist: true, readonly: true, timeout: BUSY_TIMEOUT_MS });
    sqlite.pragma("schema_version");
  } catch (error) {
    throw new ToolshedError("bad_request", `${from} is not a SQLite database: ${error instanceof Error ? error.message : String(error)}`, "from");
  }
  try {
    const level = describeToolshedDatabase(sqlite, from);
    await sqlite.backup(to, { progress: () => ALL_PAGES });
    return level;
  } finally {
    sqlite.close();
  }
}

/**
 * Moves the current database to `previous`, once no other connection has it open (an exclusive
 * lock is refused while a server or worker does) and its WAL is written into it; a WAL that could
 * not be emptied goes with it, so that nothing of it is lost or applied to the restored file.
 */
function setAside(file: string, previous: string): string {
  const sqlite = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    sqlite.pragma("locking_mode = EXCLUSIVE");
    sqlite.exec("BEGIN EXCLUSIVE; COMMIT");
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } catch (error) {
    sqlite.close();
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) {
      throw new ToolshedError("conflict", `${file} is in use: stop every Toolshed server and import worker that uses it, then restore again.`);
    }
    throw error;
  }
  sqlite.close();
  for (const suffix of ["", "-wal", "-shm"]) {
    // An earlier restore's WAL must not be applied to this database.
    fs.rmSync(`${previous}${suffix}`, { force: true });
    if (exists(`${file}${suffix}`)) fs.renameSync(`${file}${suffix}`, `${previous}${suffix}`);
  }
  // The shared-memory index is rebuilt from the WAL by whoever opens the file; an empty WAL holds nothing.
  fs.rmSync(`${previous}-shm`, { force: true });
  if (exists(`${previous}-wal`) && fs.statSync(`${previous}-wal`).size === 0) fs.rmSync(`${previous}-wal`);
  return previous;
}
