import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb, type Db } from "@/db/client";

// Route handlers read plugins, skills and agent files from these folders: empty unless a test fills them.
const noLocalSources = mkdtempSync(path.join(os.tmpdir(), "toolshed-no-sources-"));
process.env.TOOLSHED_PLUGINS_DIR ??= noLocalSources;
process.env.TOOLSHED_SKILLS_DIR ??= noLocalSources;
process.env.TOOLSHED_AGENTS_DIR ??= noLocalSources;

/** Points the route handlers' getDb() at a fresh in-memory database. */
export function useFreshDatabase(): Db {
  const db = openDb(":memory:");
  (globalThis as { toolshedDb?: Db }).toolshedDb = db;
  return db;
}

export function jsonRequest(method: string, body?: unknown, headers: Record<string, string> = {}): Request {
  const text = typeof body === "string" ? body : body === undefined ? undefined : JSON.stringify(body);
  return new Request("http://localhost/api", { method, body: text, headers: { "content-type": "application/json", ...headers } });
}

export function params<T extends Record<string, string>>(values: T) {
  return { params: Promise.resolve(values) };
}
