import { beforeEach, describe, expect, it } from "vitest";
import { createPasswordUser, getAuth } from "@/app/_services/auth";
import type { Db } from "@/db/client";
import { DEFAULT_TEAM, rolesOfUser, setMemberRole } from "@/db/queries/teams";
import { countSignInMethods, deleteUnprovenUser, findUser, proveAddress } from "@/db/queries/users";
import { useFreshDatabase } from "./helpers";

// The database side of binding invitations to the address (tests/security/invitations.test.ts), on both dialects.

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
});

/** A person with a password, a session and a role in the default team. */
async function person(email: string, addressProven: boolean): Promise<{ id: string; sessionToken: string }> {
  const user = await createPasswordUser({ email, name: "someone", password: "a long enough password" }, { addressProven });
  await setMemberRole(db, DEFAULT_TEAM, user.id, "editor");
  const { response } = await getAuth().api.signInEmail({ body: { email, password: "a long enough password" }, returnHeaders: true });
  return { id: user.id, sessionToken: response.token };
}

const sessionExists = async (token: string) => !!(await (await getAuth().$context).internalAdapter.findSession(token));

describe("deleteUnprovenUser", () => {
  it("deletes an unproven person with their sessions, sign-in methods and memberships, and never a proven one", async () => {
    const unproven = await person("unproven@example.com", false);
    const proven = await person("proven@example.com", true);
    expect(await deleteUnprovenUser(db, proven.id)).toBe(false);
    expect(await findUser(db, proven.id)).toBeDefined();
    expect(await deleteUnprovenUser(db, unproven.id)).toBe(true);
    expect(await findUser(db, unproven.id)).toBeUndefined();
    expect(await rolesOfUser(db, unproven.id)).toEqual({});
    expect(await countSignInMethods(db, unproven.id)).toBe(0);
    expect(await sessionExists(unproven.sessionToken)).toBe(false);
  });
});

describe("proveAddress", () => {
  it("marks the address proven and removes earlier sign-in methods and sessions, keeping memberships; once", async () => {
    const unproven = await person("unproven@example.com", false);
    expect(await proveAddress(db, unproven.id)).toBe(true);
    expect(await findUser(db, unproven.id)).toMatchObject({ emailVerified: true });
    expect(await countSignInMethods(db, unproven.id)).toBe(0);
    expect(await sessionExists(unproven.sessionToken)).toBe(false);
    expect(await rolesOfUser(db, unproven.id)).toEqual({ [DEFAULT_TEAM]: "editor" });

    const proven = await person("proven@example.com", true);
    expect(await proveAddress(db, proven.id)).toBe(false);
    expect(await countSignInMethods(db, proven.id)).toBe(1);
    expect(await sessionExists(proven.sessionToken)).toBe(true);
  });
});
