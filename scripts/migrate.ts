/**
 * `npm run db:migrate`: brings the database to this release's schema, with its start-up data.
 * With TOOLSHED_DATABASE_URL (postgres://…), the PostgreSQL database there; otherwise the SQLite
 * file (TOOLSHED_DB), created if needed. The start-up data (db/seed.ts): the demo catalog unless
 * TOOLSHED_SEED=0, built-ins a newer release ships, the secret key. One step before the server starts (scripts/start.sh,
 * Playwright's web servers), so that processes never race on it; the server refuses a database
 * this has not migrated.
 */
import { closeDb, databaseFile, migrateDatabase, openPostgres } from "../db/client";
import { migratePostgres } from "../db/migrate-postgres";
import { seed } from "../db/seed";

const databaseUrl = process.env.TOOLSHED_DATABASE_URL;
const demo = process.env.TOOLSHED_SEED !== "0";
if (databaseUrl) {
  await migratePostgres(databaseUrl, async () => {
    const db = openPostgres(databaseUrl);
    try {
      await seed(db, { demo });
    } finally {
      await closeDb(db);
    }
  });
  const { host, pathname } = new URL(databaseUrl);
  process.stderr.write(`Toolshed: the PostgreSQL database ${host}${pathname} is migrated and seeded.\n`);
} else {
  const file = databaseFile();
  const db = migrateDatabase(file);
  await seed(db, { demo });
  await closeDb(db);
  process.stderr.write(`Toolshed: ${file} is migrated and seeded.\n`);
}
