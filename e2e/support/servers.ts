/** Ports of the servers the e2e run starts: the app without a main model, a scripted model, the app with it. */
const base = Number(process.env.E2E_PORT ?? 3210);

export const APP_PORT = base;
export const SCRIPTED_MODEL_PORT = base + 1;
export const APP_WITH_MODEL_PORT = base + 2;

export const APP_WITH_MODEL_URL = `http://127.0.0.1:${APP_WITH_MODEL_PORT}`;
