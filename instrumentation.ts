/** Migrates and seeds once at server start, on the Node.js runtime only (never during the build). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDb } = await import("./db/client");
  const { seed } = await import("./db/seed");
  seed(getDb(), { demo: process.env.TOOLSHED_SEED !== "0" });
}
