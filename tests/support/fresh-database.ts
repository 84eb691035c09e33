import { Client } from "pg";
import { closeDb, type Db, locationOf, openDb, openPostgres } from "@/db/client";
import { databaseUrl } from "@/db/dialect";
import { TEMPLATE_DATABASE, withDatabase } from "./postgres-urls";

const created: { db: Db; name: string }[] = [];
let count = 0;

/** The run's maintenance database, where test databases are created and dropped. */
async function withAdmin<T>(url: string, work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A new, migrated, empty database for a test: in memory on SQLite; on PostgreSQL (the vitest
 * project "postgres") a copy of the migrated template, dropped after the test file
 * (tests/support/postgres-cleanup.ts).
 */
export async function freshDatabase(): Promise<Db> {
  const url = databaseUrl();
  if (!url) return openDb(":memory:");
  const name = `test_${process.pid}_${++count}`;
  await withAdmin(url, (admin) => createFromTemplate(admin, name));
  const db = openPostgres(withDatabase(url, name));
  created.push({ db, name });
  return db;
}

/** The URL of a PostgreSQL database freshDatabase made, for another process to open it. */
export function urlOfFreshDatabase(db: Db): string {
  const location = locationOf(db);
  if (!location || !("postgres" in location)) throw new Error("Not a PostgreSQL database: only the vitest project postgres has URLs.");
  return location.postgres;
}

/** Drops the databases freshDatabase made. */
export async function dropFreshDatabases(): Promise<void> {
  const url = databaseUrl();
  if (!url || created.length === 0) return;
  const dropped = created.splice(0);
  for (const { db } of dropped) await closeDb(db);
  await withAdmin(url, async (admin) => {
    for (const { name } of dropped) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** CREATE DATABASE … TEMPLATE, again while another worker's copy holds the template a moment. */
async function createFromTemplate(admin: Client, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
      return;
    } catch (error) {
      if (!/being accessed by other users/.test((error as Error).message) || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}
