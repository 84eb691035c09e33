import { beforeEach, describe, expect, it } from "vitest";
import { passwordMatches } from "@/app/_services/auth";
import { bootstrapAccounts, completeSetup, setupLinkOpen } from "@/app/_services/bootstrap";
import type { Db } from "@/db/client";
import { userIsInstanceAdmin } from "@/db/queries/instance-admins";
import { rolesOfUser } from "@/db/queries/teams";
import { countUsers, findUserByEmail } from "@/db/queries/users";
import { useFreshDatabase } from "./helpers";

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
});

async function printedSetupSecret(env: Record<string, string | undefined> = {}): Promise<string> {
  const lines: string[] = [];
  await bootstrapAccounts(db, env, (line) => lines.push(line));
  const match = /\/setup\?token=([\w-]+)/.exec(lines.join("\n"));
  if (!match) throw new Error(`No setup link in: ${lines.join("\n")}`);
  return match[1];
}

const admin = { email: "First@Example.com", name: "First Admin", password: "a long enough password" };

describe("first start", () => {
  it("prints a one-time setup link on the configured origin that creates the first admin, once", async () => {
    const lines: string[] = [];
    await bootstrapAccounts(db, { TOOLSHED_URL: "https://toolshed.example.com" }, (line) => lines.push(line));
    expect(lines.join("\n")).toMatch(/https:\/\/toolshed\.example\.com\/setup\?token=[\w-]{43}/);
    const secret = await printedSetupSecret();
    // Each start replaces the link: the previous one no longer works.
    await expect(completeSetup(db, "wrong", admin)).rejects.toThrow(/not valid/);
    await expect(completeSetup(db, secret, { ...admin, password: "short" })).rejects.toThrow(/at least 10/);
    await completeSetup(db, secret, admin);
    const user = (await findUserByEmail(db, "first@example.com"))!;
    expect(await rolesOfUser(db, user.id)).toEqual({ default: "admin" });
    expect(await userIsInstanceAdmin(db, user.id)).toBe(true);
    expect(await passwordMatches(user.id, admin.password)).toBe(true);
    expect(await setupLinkOpen(db)).toBe(false);
    await expect(completeSetup(db, secret, { ...admin, email: "second@example.com" })).rejects.toThrow(/not valid/);
    expect(await countUsers(db)).toBe(1);
  });

  it("prints nothing once there are accounts", async () => {
    await completeSetup(db, await printedSetupSecret(), admin);
    const lines: string[] = [];
    await bootstrapAccounts(db, {}, (line) => lines.push(line));
    expect(lines).toEqual([]);
  });

  it("creates, then confirms, the operator's admin from the environment without a browser", async () => {
    const env = { TOOLSHED_ADMIN_EMAIL: "ops@example.com", TOOLSHED_ADMIN_PASSWORD: "first password!" };
    await bootstrapAccounts(db, env, () => {});
    const user = (await findUserByEmail(db, "ops@example.com"))!;
    expect(await rolesOfUser(db, user.id)).toEqual({ default: "admin" });
    expect(await userIsInstanceAdmin(db, user.id)).toBe(true);
    // A restart with a new password: the same person, with the new password, still admin.
    await bootstrapAccounts(db, { ...env, TOOLSHED_ADMIN_PASSWORD: "second password!" }, () => {});
    expect(await countUsers(db)).toBe(1);
    expect(await passwordMatches(user.id, "second password!")).toBe(true);
    expect(await passwordMatches(user.id, "first password!")).toBe(false);
    await expect(bootstrapAccounts(db, { TOOLSHED_ADMIN_EMAIL: "ops@example.com" }, () => {})).rejects.toThrow(/both/);
    await expect(bootstrapAccounts(db, { ...env, TOOLSHED_ADMIN_PASSWORD: "short" }, () => {})).rejects.toThrow(/at least 10/);
  });

  it("stops the start on a TOOLSHED_TEAM_CREATION it does not know, naming the variable", async () => {
    await expect(bootstrapAccounts(db, { TOOLSHED_TEAM_CREATION: "anyone" }, () => {})).rejects.toThrow(
      'TOOLSHED_TEAM_CREATION is "anyone": set it to admins (only instance admins create teams; the default) or everyone.',
    );
  });
});
