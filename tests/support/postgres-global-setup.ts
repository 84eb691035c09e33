/**
 * The PostgreSQL run of the database and API suites (vitest project "postgres"): a throwaway
 * server (scripts/postgres-server.ts), a migrated template database that every test database is
 * cloned from (tests/support/fresh-database.ts), and its URL handed to the project's workers,
 * which set TOOLSHED_DATABASE_URL from it (tests/support/postgres-cleanup.ts) so that the data
 * layer runs on PostgreSQL. It points at the server's maintenance database, which holds no table.
 * Not set here: this process's environment is every project's, the SQLite one's too.
 */
import { Client } from "pg";
import type { TestProject } from "vitest/node";
import { migratePostgres } from "@/db/migrate-postgres";
import { startPostgres } from "@/scripts/postgres-server";
import { TEMPLATE_DATABASE, withDatabase } from "./postgres-urls";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  await migratePostgres(withDatabase(server.url, TEMPLATE_DATABASE));
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
