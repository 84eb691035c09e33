/**
 * The servers the e2e run starts: the app without a main model, a scripted model, the app with it.
 * The two apps answer on different host names (127.0.0.1 and localhost) because browsers keep
 * cookies per host, not per port: each app keeps its own session.
 */
const base = Number(process.env.E2E_PORT ?? 3210);

export const APP_PORT = base;
export const SCRIPTED_MODEL_PORT = base + 1;
export const APP_WITH_MODEL_PORT = base + 2;
/** A port for the specs that start an app of their own (the first-start setup link). */
export const OWN_APP_PORT = base + 3;
/** The app of the observability spec, with tracing on. */
export const TRACED_APP_PORT = base + 4;
/** The app of the per-person OAuth spec, which may reach MCP servers on loopback (its upstream runs in the spec). */
export const LOOPBACK_MCP_APP_PORT = base + 5;

export const APP_URL = `http://127.0.0.1:${APP_PORT}`;
export const APP_WITH_MODEL_URL = `http://localhost:${APP_WITH_MODEL_PORT}`;

/** The operator's admin both apps create at start (TOOLSHED_ADMIN_EMAIL / _PASSWORD). */
export const ADMIN = { email: "admin@example.com", password: "e2e admin password" };

/** Where the setup project leaves the admin's signed-in browser state and API tokens. */
export const AUTH_STATE_FILE = "test-results/.auth/admin.json";
export const TOKENS_FILE = "test-results/.auth/tokens.json";
