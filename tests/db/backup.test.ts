import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { describe, expect, it } from "vitest";
import { backupSqlite, restoreSqlite } from "@/db/backup";
import { closeDb, MIGRATIONS_FOLDER, migrateDatabase, openDb } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { createCatalog, listCatalogs } from "@/db/queries/catalogs";
import { SERVER_TSX_ARGS } from "../support/server-process";

const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), "toolshed-backup-"));

/** A migrated database file holding the catalogs named. */
async function databaseWith(file: string, ...catalogs: string[]): Promise<void> {
  const db = migrateDatabase(file);
  for (const name of catalogs) await createCatalog(db, { name }, "tests");
  await closeDb(db);
}

async function catalogNames(file: string): Promise<string[]> {
  const db = openDb(file);
  try {
    return (await listCatalogs(db)).map((catalog) => catalog.id).sort();
  } finally {
    await closeDb(db);
  }
}

/**
 * Another process writing to the database as a server would: pairs of rows, each pair in one
 * transaction, as fast as it can, until its standard input closes; it says "ready" once it has
 * written some, and at the end how many pairs it wrote.
 */
const WRITER = `
const db = new (require("better-sqlite3"))(process.argv[1], { timeout: 5000 });
db.pragma("journal_mode = WAL");
const insert = db.prepare("INSERT INTO leases (name, holder, expires_at) VALUES (?, 'writer', 0)");
const pair = db.transaction((n) => { insert.run("a-" + n); insert.run("b-" + n); });
let n = 0, stop = false;
process.stdin.on("end", () => { stop = true; }).resume();
(function write() {
  for (let i = 0; i < 20; i++) pair(n++);
  if (n === 200) process.stdout.write("ready\\n");
  if (stop) { db.close(); process.stdout.write("wrote " + n + "\\n"); return; }
  setImmediate(write);
})();
`;

function startWriter(file: string): { process: ChildProcessWithoutNullStreams; ready: Promise<void>; stop: () => Promise<number> } {
  const child = spawn(process.execPath, ["-e", WRITER, file], { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith("ready\n")) resolve();
    });
    child.on("exit", () => reject(new Error(`the writer ended: ${stderr}`)));
  });
  const stop = () =>
    new Promise<number>((resolve) => {
      child.on("exit", () => resolve(Number(/wrote (\d+)/.exec(output)?.[1])));
      child.stdin.end();
    });
  return { process: child, ready, stop };
}

/** A database migrated by only the first `count` migrations of this build, as an older release left it. */
function olderDatabase(file: string, count: number): void {
  const older = folder();
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"));
  journal.entries = journal.entries.slice(0, count);
  fs.mkdirSync(path.join(older, "meta"));
  fs.writeFileSync(path.join(older, "meta", "_journal.json"), JSON.stringify(journal));
  for (const entry of journal.entries) fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(older, `${entry.tag}.sql`));
  const sqlite = new Database(file);
  migrate(drizzle(sqlite), { migrationsFolder: older });
  sqlite.prepare("INSERT INTO catalogs (id, name) VALUES ('old', 'Old')").run();
  sqlite.close();
}

const cli = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [...SERVER_TSX_ARGS, "scripts/toolshed.ts", ...args], {
    env: { ...process.env, TOOLSHED_DATABASE_URL: "", ...env },
    encoding: "utf8",
  });

// Backups of the SQLite file; on PostgreSQL, pg_dump does them (the last test checks that the CLI says so).
describe.skipIf(usesPostgres())("SQLite backup and restore", { timeout: 60_000 }, () => {
  it("backs up a consistent snapshot while another process keeps writing: the copy opens and has the data", async () => {
    const dir = folder();
    const file = path.join(dir, "toolshed.db");
    await databaseWith(file, "Team");
    // Enough pages that a copy in several steps would see writes between them.
    const sqlite = new Database(file);
    sqlite.pragma("journal_mode = WAL");
    const pad = sqlite.prepare("INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, 0)");
    sqlite.transaction(() => {
      for (let n = 0; n < 3_000; n++) pad.run(`pad-${n}`, "x".repeat(400));
    })();
    sqlite.close();

    const writer = startWriter(file);
    await writer.ready;
    const out = path.join(dir, "backup.db");
    const { bytes } = await backupSqlite(file, out);
    const written = await writer.stop();

    expect(bytes).toBe(fs.statSync(out).size);
    expect(fs.existsSync(`${out}-wal`)).toBe(false);
    expect(await catalogNames(out)).toEqual(["team"]);
    const copy = new Database(out, { readonly: true });
    const names = (copy.prepare("SELECT name FROM leases WHERE holder = 'writer'").all() as { name: string }[]).map((row) => row.name);
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(copy.prepare("SELECT count(*) AS n FROM leases WHERE name LIKE 'pad-%'").get()).toEqual({ n: 3_000 });
    copy.close();
    // Every pair whole, and the pairs written before the snapshot all there: one moment's state.
    const pairs = names.filter((name) => name.startsWith("a-")).length;
    expect(pairs).toBeGreaterThanOrEqual(200);
    expect(pairs).toBeLessThanOrEqual(written);
    expect(names.sort()).toEqual(
      Array.from({ length: pairs }, (_, n) => [`a-${n}`, `b-${n}`])
        .flat()
        .sort(),
    );
  });

  it("refuses to replace an existing file unless forced", async () => {
    const dir = folder();
    const file = path.join(dir, "toolshed.db");
    await databaseWith(file, "Team");
    const out = path.join(dir, "backup.db");
    fs.writeFileSync(out, "keep me");
    await expect(backupSqlite(file, out)).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("pass --force") });
    expect(fs.readFileSync(out, "utf8")).toBe("keep me");
    await backupSqlite(file, out, { force: true });
    expect(await catalogNames(out)).toEqual(["team"]);
    expect(fs.readdirSync(dir).sort()).toEqual(["backup.db", "toolshed.db"]);
  });

  it("restores a backup over a changed database, keeping that one as .before-restore", async () => {
    const dir = folder();
    const file = path.join(dir, "toolshed.db");
    await databaseWith(file, "Before");
    const out = path.join(dir, "backup.db");
    await backupSqlite(file, out);
    const db = openDb(file);
    await createCatalog(db, { name: "After" }, "tests");

    // A server still has it open: refused, nothing touched.
    await expect(restoreSqlite(out, file)).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("is in use") });
    await closeDb(db);
    expect(await catalogNames(file)).toEqual(["after", "before"]);

    // A server that was killed leaves its shared-memory index behind; it is not kept with the old database.
    fs.writeFileSync(`${file}-shm`, Buffer.alloc(32_768));
    const restored = await restoreSqlite(out, file);
    expect(fs.readdirSync(dir).filter((name) => /-(shm|wal)$/.test(name))).toEqual([]);
    expect(restored).toMatchObject({ missing: 0, previous: `${file}.before-restore` });
    expect(await catalogNames(file)).toEqual(["before"]);
    expect(await catalogNames(`${file}.before-restore`)).toEqual(["after", "before"]);

    // A second restore would replace that file: only when forced.
    await expect(restoreSqlite(out, file)).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("--force") });
    await restoreSqlite(out, file, { force: true });
    expect(await catalogNames(`${file}.before-restore`)).toEqual(["before"]);
    expect(fs.readdirSync(dir).sort()).toEqual(["backup.db", "toolshed.db", "toolshed.db.before-restore"]);
  });

  it("migrates an older release's backup forward as it restores it", async () => {
    const dir = folder();
    const old = path.join(dir, "old.db");
    olderDatabase(old, 3);
    const file = path.join(dir, "toolshed.db");
    const total = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")).entries.length;
    expect(await restoreSqlite(old, file)).toEqual({ applied: 3, missing: total - 3, previous: null });
    expect(await catalogNames(file)).toEqual(["old"]);
  });

  it("refuses what is not a Toolshed database this build knows, and leaves the database alone", async () => {
    const dir = folder();
    const file = path.join(dir, "toolshed.db");
    await databaseWith(file, "Team");
    const text = path.join(dir, "notes.txt");
    fs.writeFileSync(text, "not a database at all, just some text that is long enough to have a header");
    await expect(restoreSqlite(text, file)).rejects.toThrow(/is not a SQLite database/);
    const other = path.join(dir, "other.db");
    new Database(other).exec("CREATE TABLE things (id integer)");
    await expect(restoreSqlite(other, file)).rejects.toThrow(/is not a Toolshed database/);
    const newer = path.join(dir, "newer.db");
    await backupSqlite(file, newer);
    new Database(newer).prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)").run(Date.now() + 1e10);
    await expect(restoreSqlite(newer, file)).rejects.toThrow(/1 migration\(s\) this build does not know/);
    expect(await catalogNames(file)).toEqual(["team"]);
    expect(fs.readdirSync(dir).sort()).toEqual(["newer.db", "notes.txt", "other.db", "toolshed.db"]);
  });

  it("toolshed backup and restore on the command line; on PostgreSQL it says to use pg_dump, and fails", async () => {
    const dir = folder();
    const file = path.join(dir, "toolshed.db");
    await databaseWith(file, "Team");
    const out = path.join(dir, "backups", "backup.db");
    const env = { TOOLSHED_DB: file };
    const backup = cli(env, "backup", "--out", out);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toBe("");
    expect(await catalogNames(out)).toEqual(["team"]);
    const again = cli(env, "backup", "--out", out);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain("exists: pass --force");

    const restore = cli(env, "restore", "--from", out);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stderr).toContain("must be stopped");
    expect(restore.stderr).toContain(`kept as ${file}.before-restore`);

    const postgres = cli({ TOOLSHED_DATABASE_URL: "postgres://nobody@127.0.0.1:1/toolshed" }, "backup", "--out", path.join(dir, "pg.db"));
    expect(postgres.status).toBe(1);
    expect(postgres.stderr).toContain("pg_dump --format=custom");
    expect(fs.existsSync(path.join(dir, "pg.db"))).toBe(false);
  });
});
