import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { appSettings } from "../schema";

export function readSetting<T>(db: Db, key: string): T | undefined {
  return db.select().from(appSettings).where(eq(appSettings.key, key)).get()?.value as T | undefined;
}

export function writeSetting(db: Db, key: string, value: unknown): void {
  db.insert(appSettings).values({ key, value }).onConflictDoUpdate({ target: appSettings.key, set: { value } }).run();
}

/** Removes a setting only if it still holds `expected`: true for exactly one of several racing callers. */
export function takeSetting(db: Db, key: string, expected: string): boolean {
  const current = readSetting<string>(db, key);
  if (current !== expected) return false;
  return db.delete(appSettings).where(eq(appSettings.key, key)).run().changes === 1;
}

export function deleteSetting(db: Db, key: string): void {
  db.delete(appSettings).where(eq(appSettings.key, key)).run();
}
