import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    tsconfigPaths: true,
    // Tests import the server's modules directly: the "server-only" marker they carry is a no-op
    // here, as under React's server condition (processes the tests start get --conditions=react-server).
    alias: { "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)) },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    // A fixed key, so that no test ever creates ./data/secret.key (tests of the key file use temp dirs).
    env: { TOOLSHED_SECRET_KEY: "dGVzdC1vbmx5LWtleS10b29sc2hlZC0zMi1ieXRlcyE=" },
  },
});
