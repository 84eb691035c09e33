import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { listCatalogs } from "@/db/queries/catalogs";
import { SERVER_TSX_ARGS } from "../support/server-process";

const freshFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-migrate-")), "toolshed.db");

/** `npm run db:migrate` on `file`. */
const migrateStep = (file: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [...SERVER_TSX_ARGS, "scripts/migrate.ts"], { env: { ...process.env, TOOLSHED_DB: file, ...env }, encoding: "utf8" });

describe("migrations and seeding are a step of their own (npm run db:migrate)", () => {
  it("opening a database that is missing is refused, naming the step, and creates nothing", async () => {
    const file = freshFile();
    expect(() => openDb(file)).toThrow(`The database ${file} does not exist: run \`npm run db:migrate\` (with the same TOOLSHED_DB) first.`);
    expect(existsSync(file)).toBe(false);
  });

  it("opening a database that lacks migrations is refused, and it stays as it was", async () => {
    const file = freshFile();
    new Database(file).close();
    expect(() => openDb(file)).toThrow(/lacks \d+ of this release's migrations: run `npm run db:migrate`/);
    const tables = new Database(file).prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    expect(tables).toEqual([]);
  });

  it("migrates and seeds a new database, and may run again", async () => {
    const file = freshFile();
    const first = migrateStep(file);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain(`${file} is migrated and seeded`);
    expect((await listCatalogs(openDb(file))).map((catalog) => catalog.id)).toEqual(["demo"]);
    expect(migrateStep(file).status).toBe(0);
    expect((await listCatalogs(openDb(file))).map((catalog) => catalog.id)).toEqual(["demo"]);
  });

  it("seeds no demo catalog with TOOLSHED_SEED=0", async () => {
    const file = freshFile();
    expect(migrateStep(file, { TOOLSHED_SEED: "0" }).status).toBe(0);
    expect(await listCatalogs(openDb(file))).toEqual([]);
  });
});
