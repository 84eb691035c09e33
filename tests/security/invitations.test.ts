import { handleOAuthUserInfo } from "better-auth/oauth2";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as invitationsRoute from "@/app/api/teams/[team]/invitations/route";
import { bootstrapAccounts } from "@/app/_services/bootstrap";
import { createPasswordUser, getAuth } from "@/app/_services/auth";
import { createInvitedAccountAction } from "@/app/invite/actions";
import type { Db } from "@/db/client";
import { createTeam, DEFAULT_TEAM, inviteMember, listMembers, rolesOfUser, setMemberRole } from "@/db/queries/teams";
import { findUser, findUserByEmail } from "@/db/queries/users";
import { jsonRequest, params, useFreshDatabase } from "../api/helpers";
import { captureLog, WARN_LEVEL } from "../support/log-lines";

// Item 7 of issue 21: a team admin invited an address, opened the link and owned that account, marked verified.

// Test doubles for Next's request scope: the server action reads headers and ends in a redirect.
vi.mock("next/headers", () => ({ headers: async () => new Headers(), cookies: async () => ({ get: () => undefined, set: () => {} }) }));
class RedirectSignal extends Error {}
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw new RedirectSignal(url);
  },
}));

const CEO = "ceo@example.com";
const SQUATTER_PASSWORD = "the squatter's password";
const OWNER_PASSWORD = "the owner's own password";

let db: Db;
/** The server's log lines of the test running (warnings about replaced accounts among them), kept out of its output. */
let log: ReturnType<typeof captureLog>;

beforeEach(async () => {
  db = await useFreshDatabase();
  log = captureLog();
  return log.restore;
});

async function admin(email: string, teamId = DEFAULT_TEAM): Promise<string> {
  const user = await createPasswordUser({ email, name: email.split("@")[0], password: "an admin's password" });
  await setMemberRole(db, teamId, user.id, "admin");
  return user.id;
}

/** Someone follows an invitation link and creates the account it offers, through the page's server action. */
async function createAccountThroughLink(secret: string, password: string): Promise<Awaited<ReturnType<typeof createInvitedAccountAction>> | "redirected"> {
  try {
    return await createInvitedAccountAction(secret, { name: "Chief", password, confirm: password });
  } catch (error) {
    if (error instanceof RedirectSignal) return "redirected";
    throw error;
  }
}

/** A team admin squats the CEO's address: invites it as admin of their team and opens the link themselves. */
async function squat(): Promise<string> {
  const mallory = await admin("mallory@example.com");
  const { secret } = await inviteMember(db, DEFAULT_TEAM, { email: CEO, role: "admin" }, "mallory@example.com");
  expect(mallory).toBeTruthy();
  expect(await createAccountThroughLink(secret, SQUATTER_PASSWORD)).toBe("redirected");
  return (await findUserByEmail(db, CEO))!.id;
}

const signIn = (email: string, password: string) => getAuth().api.signInEmail({ body: { email, password }, returnHeaders: true });

async function sessionCookie(email: string, password: string): Promise<string> {
  const { headers } = await signIn(email, password);
  return headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** Whether better-auth holds the person's address as verified (read the way it reads it). */
const addressVerified = async (userId: string) => (await (await getAuth().$context).internalAdapter.findUserById(userId))?.emailVerified;

const sessionOf = (cookie: string) => getAuth().api.getSession({ headers: new Headers({ cookie }) });

/** A second team, whose admin invites the real CEO. */
async function acmeInvitesTheCeo(): Promise<string> {
  const alice = await createPasswordUser({ email: "alice@example.com", name: "alice", password: "an admin's password" });
  await createTeam(db, { name: "Acme", id: "acme" }, alice.id);
  return (await inviteMember(db, "acme", { email: CEO, role: "editor" }, "alice@example.com")).secret;
}

describe("an account made through an invitation link", () => {
  it("is not verified: opening the link proves nothing about the address", async () => {
    const squatted = await squat();
    expect(await addressVerified(squatted)).toBe(false);
    // The inviting team's admins see that the account that accepted has an unproven address.
    const listed = await (await invitationsRoute.GET(jsonRequest("GET"), params({ team: DEFAULT_TEAM }))).json();
    expect(listed.invitations).toMatchObject([
      { email: CEO, acceptedAt: expect.any(String), acceptedBy: { userId: squatted, name: "Chief", email: CEO, emailVerified: false } },
    ]);
  });

  it("does not block the real person: their own invitation replaces it, and the squatter keeps nothing", async () => {
    const squatted = await squat();
    const squatterSession = await sessionCookie(CEO, SQUATTER_PASSWORD);
    expect(await sessionOf(squatterSession)).toMatchObject({ user: { id: squatted } });

    const secret = await acmeInvitesTheCeo();
    expect(await createAccountThroughLink(secret, OWNER_PASSWORD)).toBe("redirected");

    const owner = (await findUserByEmail(db, CEO))!;
    expect(owner.id).not.toBe(squatted);
    expect(await findUser(db, squatted)).toBeUndefined();
    expect(await rolesOfUser(db, owner.id)).toEqual({ acme: "editor" });
    expect((await listMembers(db, DEFAULT_TEAM)).map((member) => member.email)).not.toContain(CEO);
    await expect(signIn(CEO, SQUATTER_PASSWORD)).rejects.toThrow();
    expect(await sessionOf(squatterSession)).toBeNull();
    expect((await signIn(CEO, OWNER_PASSWORD)).response.user.id).toBe(owner.id);
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: WARN_LEVEL, msg: expect.stringMatching(/team acme by alice@example\.com: the unproven account .* was replaced/) }),
    );
  });

  it("never replaces an account whose address is proven: its owner signs in to accept", async () => {
    const owner = await createPasswordUser({ email: CEO, name: "Chief", password: OWNER_PASSWORD });
    const secret = await acmeInvitesTheCeo();
    expect(await createAccountThroughLink(secret, SQUATTER_PASSWORD)).toMatchObject({ ok: false, error: { code: "conflict", field: "email" } });
    expect((await findUserByEmail(db, CEO))?.id).toBe(owner.id);
    await expect(signIn(CEO, SQUATTER_PASSWORD)).rejects.toThrow();
    expect((await signIn(CEO, OWNER_PASSWORD)).response.user.id).toBe(owner.id);
  });
});

describe("signing in with a provider that proves the address", () => {
  /** What better-auth does once GitHub has answered with the person's profile (the OAuth round trip itself is not run). */
  async function providerSignIn(emailVerified: boolean) {
    return handleOAuthUserInfo({ context: await getAuth().$context } as Parameters<typeof handleOAuthUserInfo>[0], {
      userInfo: { id: "gh-4711", email: CEO, emailVerified, name: "The CEO" },
      account: { providerId: "github", accountId: "gh-4711" },
      callbackURL: "/",
    });
  }

  it("takes the unproven account over: it becomes verified, the squatter's password and sessions stop working", async () => {
    const squatted = await squat();
    const squatterSession = await sessionCookie(CEO, SQUATTER_PASSWORD);

    const result = await providerSignIn(true);
    expect(result.error).toBeNull();
    expect(result.data?.user.id).toBe(squatted);
    expect(await addressVerified(squatted)).toBe(true);
    await expect(signIn(CEO, SQUATTER_PASSWORD)).rejects.toThrow();
    expect(await sessionOf(squatterSession)).toBeNull();
    const accounts = await (await getAuth().$context).internalAdapter.findAccounts(squatted);
    expect(accounts.map((account) => account.providerId)).toEqual(["github"]);
    // The session the provider's sign-in made stays.
    expect(await (await getAuth().$context).internalAdapter.findSession(result.data!.session.token)).toMatchObject({ user: { id: squatted } });
  });

  it("leaves the account alone when the provider does not vouch for the address", async () => {
    const squatted = await squat();
    expect((await providerSignIn(false)).error).toBe("account not linked");
    expect(await addressVerified(squatted)).toBe(false);
    expect((await signIn(CEO, SQUATTER_PASSWORD)).response.user.id).toBe(squatted);
  });
});

describe("the operator naming a squatted address as TOOLSHED_ADMIN_EMAIL", () => {
  it("ends the squatter's sessions and password: the operator's password is the only way in", async () => {
    const squatted = await squat();
    const squatterSession = await sessionCookie(CEO, SQUATTER_PASSWORD);
    await bootstrapAccounts(db, { TOOLSHED_ADMIN_EMAIL: CEO, TOOLSHED_ADMIN_PASSWORD: OWNER_PASSWORD }, () => {});
    expect(await addressVerified(squatted)).toBe(true);
    expect(await sessionOf(squatterSession)).toBeNull();
    await expect(signIn(CEO, SQUATTER_PASSWORD)).rejects.toThrow();
    expect((await signIn(CEO, OWNER_PASSWORD)).response.user.id).toBe(squatted);
  });
});
