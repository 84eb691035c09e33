import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    // A fixed key, so that no test ever creates ./data/secret.key (tests of the key file use temp dirs).
    env: { TOOLSHED_SECRET_KEY: "dGVzdC1vbmx5LWtleS10b29sc2hlZC0zMi1ieXRlcyE=" },
  },
});
