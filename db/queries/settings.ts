import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { appSettings } from "../tables";

export async function readSetting<T>(db: Db, key: string): Promise<T | undefined> {
  return (await db.select().from(appSettings).where(eq(appSettings.key, key)).limit(1))[0]?.value as T | undefined;
}

export async function writeSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db.insert(appSettings).values({ key, value }).onConflictDoUpdate({ target: appSettings.key, set: { value } });
}

/** Removes a setting only if it still holds `expected`: true for exactly one of several racing callers. */
export async function takeSetting(db: Db, key: string, expected: string): Promise<boolean> {
  const current = await readSetting<string>(db, key);
  if (current !== expected) return false;
  return (await db.delete(appSettings).where(eq(appSettings.key, key)).returning({ key: appSettings.key })).length === 1;
}

export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.delete(appSettings).where(eq(appSettings.key, key));
}
