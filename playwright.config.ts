import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { ADMIN, APP_PORT, APP_URL, APP_WITH_MODEL_PORT, APP_WITH_MODEL_URL, AUTH_STATE_FILE, SCRIPTED_MODEL_PORT } from "./e2e/support/servers";

// Fresh databases per run, so tests see exactly the demo seed.
const run = `${process.pid}-${Date.now()}`;
const database = (name: string) => path.join(os.tmpdir(), `toolshed-e2e-${run}-${name}.db`);
/** Migrates and seeds the app's fresh database, then the server takes the shell's place (so stopping it stops the server). */
const nextStart = (port: number) => `npm run --silent db:migrate && exec ./node_modules/.bin/next start -p ${port}`;
/** What both apps share: the operator's admin, created at start. */
const appEnv = {
  TOOLSHED_SEED: "1",
  TOOLSHED_ADMIN_EMAIL: ADMIN.email,
  TOOLSHED_ADMIN_PASSWORD: ADMIN.password,
  // The default allowlist, the test server whose tools a JSON file defines (e2e/held-back.spec.ts changes them),
  // one whose tools are poisoned (e2e/poisoning.spec.ts), one with resources and prompts (e2e/federation.spec.ts), and the
  // reference server "everything" (tools/conformance: e2e/gateway-protocol.spec.ts).
  TOOLSHED_MCP_STDIO_COMMANDS:
    "node mcp-servers/demo-server.mjs env=DEMO_MCP_TOKEN; node tests/fixtures/mcp/defined-tools-server.mjs; node tests/sources/fixtures/poisoned-server.mjs; node tests/sources/fixtures/resources-server.mjs; node tools/conformance/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
  // No periodic re-sync: a round between a test's change to a server and its own Sync would take the change first (tests/api covers the rounds).
  TOOLSHED_MCP_SYNC_INTERVAL_MS: "0",
  // MCP clients register themselves (e2e/oauth.spec.ts runs the MCP SDK's client, which registers this way).
  TOOLSHED_OAUTH_DCR: "1",
};

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: APP_URL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    { name: "app", testMatch: /\.spec\.ts/, dependencies: ["setup"], use: { storageState: AUTH_STATE_FILE } },
  ],
  webServer: [
    {
      command: nextStart(APP_PORT),
      url: `http://127.0.0.1:${APP_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { ...appEnv, TOOLSHED_DB: database("app"), TOOLSHED_URL: APP_URL },
    },
    {
      // The scripted OpenAI-compatible test double the second app uses as its main model.
      command: "node --import tsx tests/support/scripted-openai-server-cli.ts e2e/fixtures/playground-script.json",
      url: `http://127.0.0.1:${SCRIPTED_MODEL_PORT}/v1/models`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { PORT: String(SCRIPTED_MODEL_PORT) },
    },
    {
      command: nextStart(APP_WITH_MODEL_PORT),
      url: `http://127.0.0.1:${APP_WITH_MODEL_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...appEnv,
        TOOLSHED_DB: database("with-model"),
        TOOLSHED_URL: APP_WITH_MODEL_URL,
        TOOLSHED_MAIN_MODEL: "openai-compatible:scripted-model",
        TOOLSHED_OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${SCRIPTED_MODEL_PORT}/v1`,
      },
    },
  ],
});
