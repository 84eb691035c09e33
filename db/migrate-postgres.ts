import "server-only";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { Pool } from "pg";
import { POSTGRES_MIGRATIONS_FOLDER } from "./client";

/** Any fixed number: the key of the advisory lock that migrating holds. */
const MIGRATION_LOCK = 0x7001_5ed;

/**
 * Applies the PostgreSQL migrations (db/migrations-pg) that the database at `url` lacks, then runs
 * `afterwards` (the start-up data) while still holding the lock. Instances that each run `npm run
 * db:migrate` as they start take turns (an advisory lock): the first migrates and seeds, the
 * others then find nothing left to do.
 */
export async function migratePostgres(url: string, afterwards: () => Promise<void> = async () => {}): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 2 });
  try {
    const lock = await pool.connect();
    try {
      await lock.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await migrate(drizzle(pool), { migrationsFolder: POSTGRES_MIGRATIONS_FOLDER });
      await afterwards();
    } finally {
      // Closing the session releases the lock whatever happened.
      lock.release(true);
    }
  } finally {
    await pool.end();
  }
}
