import { openDb, type Db } from "@/db/client";

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
