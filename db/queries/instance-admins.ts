import "server-only";
import { asc, eq } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import type { Db } from "../client";
import { instanceAdmins, users } from "../tables";

export interface InstanceAdmin {
  userId: string;
  email: string;
  grantedBy: string;
  since: string;
}

/** Makes a person an instance admin; one already is stays as they were (who granted it first is kept). */
export async function grantInstanceAdmin(db: Db, userId: string, grantedBy: string): Promise<void> {
  await db.insert(instanceAdmins).values({ userId, grantedBy }).onConflictDoNothing();
}

/** Takes the power away; 404 when the person was not an instance admin. */
export async function revokeInstanceAdmin(db: Db, userId: string): Promise<void> {
  const removed = await db.delete(instanceAdmins).where(eq(instanceAdmins.userId, userId)).returning({ userId: instanceAdmins.userId });
  if (removed.length === 0) throw notFound("Instance admin", "email");
}

export async function userIsInstanceAdmin(db: Db, userId: string): Promise<boolean> {
  return (await db.select({ userId: instanceAdmins.userId }).from(instanceAdmins).where(eq(instanceAdmins.userId, userId)).limit(1)).length > 0;
}

export async function listInstanceAdmins(db: Db): Promise<InstanceAdmin[]> {
  const rows = await db
    .select({ userId: instanceAdmins.userId, email: users.email, grantedBy: instanceAdmins.grantedBy, since: instanceAdmins.createdAt })
    .from(instanceAdmins)
    .innerJoin(users, eq(users.id, instanceAdmins.userId))
    .orderBy(asc(users.email));
  return rows.map((row) => ({ ...row, since: row.since.toISOString() }));
}
