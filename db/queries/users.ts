import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { users } from "../schema";

export interface User {
  id: string;
  email: string;
  name: string;
}

export function countUsers(db: Db): number {
  const [{ count }] = db.select({ count: sql<number>`count(*)` }).from(users).all();
  return count;
}

export function findUserByEmail(db: Db, email: string): User | undefined {
  return db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.email, email.trim().toLowerCase())).get();
}

export function findUser(db: Db, id: string): User | undefined {
  return db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, id)).get();
}
