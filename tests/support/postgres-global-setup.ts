/**
 * The PostgreSQL run of the database and API suites (vitest project "postgres"): a throwaway
 * server (scripts/postgres-server.ts), a migrated template database that every test database is
 * cloned from (tests/support/fresh-database.ts), and TOOLSHED_DATABASE_URL set so that the data
 * layer runs on PostgreSQL. It points at the server's maintenance database, which holds no table.
 */
import { Client } from "pg";
import { migratePostgres } from "@/db/migrate-postgres";
import { startPostgres } from "@/scripts/postgres-server";
import { TEMPLATE_DATABASE, withDatabase } from "./postgres-urls";

export default async function setup(): Promise<() => Promise<void>> {
  const server = await startPostgres();
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  await migratePostgres(withDatabase(server.url, TEMPLATE_DATABASE));
  process.env.TOOLSHED_DATABASE_URL = server.url;
  return () => server.stop();
}
