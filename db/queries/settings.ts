import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { appSettings } from "../schema";

export function readSetting<T>(db: Db, key: string): T | undefined {
  return db.select().from(appSettings).where(eq(appSettings.key, key)).get()?.value as T | undefined;
}

export function writeSetting(db: Db, key: string, value: unknown): void {
  db.insert(appSettings).values({ key, value }).onConflictDoUpdate({ target: appSettings.key, set: { value } }).run();
}
