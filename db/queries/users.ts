import "server-only";
import { and, count, eq } from "drizzle-orm";
import { writeTransaction, type Db } from "../client";
import { accounts, sessions, users } from "../tables";

export interface User {
  id: string;
  email: string;
  name: string;
  /** Whether the address is proven to be this person's: by the operator or by a sign-in provider. */
  emailVerified: boolean;
}

const userColumns = { id: users.id, email: users.email, name: users.name, emailVerified: users.emailVerified };

export async function countUsers(db: Db): Promise<number> {
  const [{ accounts }] = await db.select({ accounts: count() }).from(users);
  return accounts;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return (await db.select(userColumns).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1))[0];
}

export async function findUser(db: Db, id: string): Promise<User | undefined> {
  return (await db.select(userColumns).from(users).where(eq(users.id, id)).limit(1))[0];
}

/** How many ways of signing in (a password, linked providers) a person has. */
export async function countSignInMethods(db: Db, userId: string): Promise<number> {
  const [{ methods }] = await db.select({ methods: count() }).from(accounts).where(eq(accounts.userId, userId));
  return methods;
}

/**
 * Deletes a person whose address is not proven, with their sessions, sign-in methods and team
 * memberships (all cascade); false, and nothing changes, when the address is proven.
 */
export async function deleteUnprovenUser(db: Db, userId: string): Promise<boolean> {
  const deleted = await db
    .delete(users)
    .where(and(eq(users.id, userId), eq(users.emailVerified, false)))
    .returning({ id: users.id });
  return deleted.length > 0;
}

/**
 * Marks a person's address proven and ends what was set up before the proof, by whoever held the
 * account then: every sign-in method (password, linked providers) and every session. Team
 * memberships stay: they were given to the address. False, and nothing changes, when the address
 * was proven already.
 */
export async function proveAddress(db: Db, userId: string): Promise<boolean> {
  return writeTransaction(db, async (tx) => {
    const proven = await tx
      .update(users)
      .set({ emailVerified: true, updatedAt: new Date() })
      .where(and(eq(users.id, userId), eq(users.emailVerified, false)))
      .returning({ id: users.id });
    if (proven.length === 0) return false;
    await tx.delete(accounts).where(eq(accounts.userId, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    return true;
  });
}
