import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const shared = {
  resolve: {
    tsconfigPaths: true,
    // Tests import the server's modules directly: the "server-only" marker they carry is a no-op
    // here, as under React's server condition (processes the tests start get --conditions=react-server).
    alias: { "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)) },
  },
};

const test = {
  environment: "node",
  testTimeout: 20_000,
  // A fixed key, so that no test ever creates ./data/secret.key (tests of the key file use temp dirs).
  env: { TOOLSHED_SECRET_KEY: "dGVzdC1vbmx5LWtleS10b29sc2hlZC0zMi1ieXRlcyE=" },
} as const;

/**
 * Every test on the embedded SQLite default, then the database and API suites again on a throwaway
 * PostgreSQL (tests/support/postgres-global-setup.ts). Left out there: what is about SQLite files
 * themselves (their migrations, processes writing one file) and the dialects' own tests; left out
 * on SQLite: instances in several processes on one database.
 */
export default defineConfig({
  ...shared,
  test: {
    projects: [
      {
        ...shared,
        test: {
          ...test,
          name: "sqlite",
          include: ["tests/**/*.test.ts"],
          // Processes sharing one database need a server they all reach: PostgreSQL only.
          exclude: ["tests/api/two-instances.test.ts"],
          // SQLite whatever the shell's environment says (processes the tests start inherit this too).
          env: { ...test.env, TOOLSHED_DATABASE_URL: "" },
        },
      },
      {
        ...shared,
        test: {
          ...test,
          name: "postgres",
          include: ["tests/db/**/*.test.ts", "tests/api/**/*.test.ts", "tests/sources/**/*.test.ts", "tests/pipeline/catalog-state-cache.test.ts"],
          exclude: [
            "tests/db/concurrent-writers.test.ts",
            "tests/db/migrate-step.test.ts",
            "tests/db/schema-parity.test.ts",
            "tests/db/postgres-migrate.test.ts",
            "tests/db/server-only.test.ts",
            "tests/db/import-cycles.test.ts",
          ],
          globalSetup: ["tests/support/postgres-global-setup.ts"],
          setupFiles: ["tests/support/postgres-cleanup.ts"],
        },
      },
    ],
  },
});
