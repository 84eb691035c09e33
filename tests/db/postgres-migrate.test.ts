import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, getTableName, is, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertMigrated, closeDb, openPostgres } from "@/db/client";
import { migratePostgres } from "@/db/migrate-postgres";
import * as schema from "@/db/schema-pg";
import { type PostgresServer, startPostgres } from "@/scripts/postgres-server";
import { SERVER_TSX_ARGS } from "../support/server-process";

let server: PostgresServer;
let pool: Pool;

beforeAll(async () => {
  server = await startPostgres();
  pool = new Pool({ connectionString: server.url });
  // Stopping the server at the end terminates a connection still closing (57P01): expected then, and an unhandled pool error otherwise.
  pool.on("error", () => undefined);
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

/** The migrations this release ships (db/migrations-pg). */
const SHIPPED_MIGRATIONS = JSON.parse(readFileSync("db/migrations-pg/meta/_journal.json", "utf8")).entries.length;

const pgTables: PgTable[] = Object.values(schema).filter((value) => is(value, PgTable));

/** The columns only the migrations know: SQLite's implicit rowid (see db/schema-pg.ts). */
const ROWID_TABLES = ["decisions", "evaluations"];
/** The tables only the migrations know: the rate-limit counters, which only their library reads (see db/rate-limits.ts). */
const MIGRATION_ONLY_TABLES = { rate_limits: ["expire", "key", "points"] };

describe("the PostgreSQL migrations (db/migrations-pg)", () => {
  it("apply once however many instances run them at the same time, and again find nothing to do", async () => {
    await Promise.all([migratePostgres(server.url), migratePostgres(server.url)]);
    await migratePostgres(server.url);
    const { rows } = await pool.query("SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations");
    expect(rows[0].applied).toBe(SHIPPED_MIGRATIONS);
  });

  it("are what npm run db:migrate applies when TOOLSHED_DATABASE_URL is set, instead of creating a SQLite file", async () => {
    await pool.query("CREATE DATABASE migrate_step");
    const url = server.url.replace(/[^/]+$/, "migrate_step");
    const sqliteFile = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-migrate-")), "toolshed.db");
    const step = spawnSync(process.execPath, [...SERVER_TSX_ARGS, "scripts/migrate.ts"], {
      env: { ...process.env, TOOLSHED_DATABASE_URL: url, TOOLSHED_DB: sqliteFile },
      encoding: "utf8",
    });
    expect(step.status, step.stderr).toBe(0);
    expect(existsSync(sqliteFile)).toBe(false);
    const migrated = new Pool({ connectionString: url });
    const { rows } = await migrated.query("SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations");
    await migrated.end();
    expect(rows[0].applied).toBe(SHIPPED_MIGRATIONS);
  }, 60_000);

  it("are required at start: a database without them (or short of one) is refused with what to run, and the password is not repeated", async () => {
    await pool.query("CREATE DATABASE not_migrated");
    const url = new URL(server.url.replace(/[^/]+$/, "not_migrated"));
    // Trust authentication ignores the password; the message must not repeat it.
    url.password = "secret-pass";
    const db = openPostgres(url.toString());
    try {
      // Refused before any query reaches a missing table, whatever the credentials.
      const refusal = await assertMigrated(db).then(
        () => null,
        (error: Error) => error,
      );
      expect(refusal?.message).toMatch(
        new RegExp(`database not_migrated on .* lacks ${SHIPPED_MIGRATIONS} of this release's migrations: run \`npm run db:migrate\``),
      );
      expect(refusal?.message).not.toContain("secret-pass");
    } finally {
      await closeDb(db);
    }

    const migratedUrl = server.url.replace(/[^/]+$/, "not_migrated");
    await migratePostgres(migratedUrl);
    const migrated = openPostgres(migratedUrl);
    try {
      await expect(assertMigrated(migrated)).resolves.toBeUndefined();
      const direct = new Pool({ connectionString: migratedUrl });
      await direct.query("DELETE FROM drizzle.__drizzle_migrations WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations)");
      await direct.end();
      await expect(assertMigrated(migrated)).rejects.toThrow(/lacks 1 of this release's migrations/);
    } finally {
      await closeDb(migrated);
    }
  }, 60_000);

  it("build every table of db/schema-pg.ts with its columns", async () => {
    const { rows } = await pool.query<{ name: string; columns: string[] }>(
      `SELECT table_name AS name, array_agg(column_name::text ORDER BY column_name::text) AS columns
       FROM information_schema.columns WHERE table_schema = 'public' GROUP BY table_name`,
    );
    const built = Object.fromEntries(rows.map((table) => [table.name, table.columns]));
    const expected = {
      ...Object.fromEntries(
        pgTables.map((table) => {
          const { name, columns } = getTableConfig(table);
          const names = columns.map((column) => column.name);
          return [name, (ROWID_TABLES.includes(name) ? [...names, "rowid"] : names).sort()];
        }),
      ),
      ...MIGRATION_ONLY_TABLES,
    };
    expect(built).toEqual(expected);
  });

  it("store JSON as its text (keys in their order, comparable) and timestamps to the millisecond", async () => {
    const db = drizzle(pool);
    const createdAt = new Date("2025-03-12T14:03:05.123Z");
    const inputSchema = { type: "object" as const, required: ["zeta", "alpha"], properties: { zeta: { type: "string" }, alpha: { type: "number" } } };
    await db.insert(schema.catalogs).values({ id: "parity", name: "Parity", createdAt, updatedAt: createdAt });
    await db.insert(schema.tools).values({ catalogId: "parity", name: "search", source: "custom", summary: "s", description: "d", inputSchema, createdAt });
    const [tool] = await db.select().from(schema.tools).where(eq(schema.tools.name, "search"));
    expect(JSON.stringify(tool.inputSchema)).toBe(JSON.stringify(inputSchema));
    expect(tool.tags).toEqual([]);
    expect(tool.meta).toBeNull();
    expect(tool.enabled).toBe(true);
    expect(tool.createdAt).toEqual(createdAt);
    expect((await db.select().from(schema.tools).where(sql`${schema.tools.tags} <> '[]'`)).length).toBe(0);

    const vector = Buffer.from(new Float32Array([0.25, -1.5]).buffer);
    await db.insert(schema.toolEmbeddings).values({ model: "m", definitionHash: "h", dimensions: 2, vector });
    const [embedding] = await db.select().from(schema.toolEmbeddings);
    expect(Buffer.isBuffer(embedding.vector) && embedding.vector.equals(vector)).toBe(true);
  });

  it("number decisions in insertion order in a rowid column that rows read through Drizzle leave out", async () => {
    const db = drizzle(pool);
    const decision = {
      catalogId: "parity",
      revision: 1,
      kind: "preselect" as const,
      path: "preselect" as const,
      model: "m",
      agent: "a",
      input: {},
      result: [],
      rejected: [],
      latencyMs: 1.5,
      tokens: {},
    };
    await db.insert(schema.decisions).values([
      { ...decision, id: "d1" },
      { ...decision, id: "d2" },
    ]);
    const { rows } = await pool.query(`SELECT id, rowid FROM ${getTableName(schema.decisions)} ORDER BY rowid`);
    expect(rows.map((row) => row.id)).toEqual(["d1", "d2"]);
    const [row] = await db.select().from(schema.decisions).where(eq(schema.decisions.id, "d1"));
    expect(row).not.toHaveProperty("rowid");
  });
});
