/**
 * The PostgreSQL run's setup file, before each test file's imports: the data layer runs on the
 * run's server (db/tables.ts reads TOOLSHED_DATABASE_URL as it loads), and the file's databases
 * are dropped after it.
 */
import { afterAll, inject } from "vitest";

process.env.TOOLSHED_DATABASE_URL = inject("postgresUrl");
const { dropFreshDatabases } = await import("./fresh-database");

// A file of many tests leaves as many databases (methods-and-paths: 47): on a busy machine
// dropping them one by one takes longer than a hook's default 10 s.
afterAll(dropFreshDatabases, 120_000);
