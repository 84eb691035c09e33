/**
 * `npm run db:migrate`: brings the database (TOOLSHED_DB) to this release's schema and start-up
 * data (db/seed.ts: the demo catalog unless TOOLSHED_SEED=0, built-ins a newer release ships, the
 * secret key), creating it if needed. One step before the server starts (scripts/start.sh,
 * Playwright's web servers), so that processes never race on it; the server refuses a database
 * this has not migrated.
 */
import { closeDb, databaseFile, migrateDatabase } from "../db/client";
import { seed } from "../db/seed";

const file = databaseFile();
const db = migrateDatabase(file);
await seed(db, { demo: process.env.TOOLSHED_SEED !== "0" });
closeDb(db);
process.stderr.write(`Toolshed: ${file} is migrated and seeded.\n`);
