import "server-only";
import { count, eq } from "drizzle-orm";
import type { Db } from "../client";
import { users } from "../tables";

export interface User {
  id: string;
  email: string;
  name: string;
}

export async function countUsers(db: Db): Promise<number> {
  const [{ accounts }] = await db.select({ accounts: count() }).from(users);
  return accounts;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return (await db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1))[0];
}

export async function findUser(db: Db, id: string): Promise<User | undefined> {
  return (await db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, id)).limit(1))[0];
}
