import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDb, type Db, migrateDatabase, openDb } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { principalOfToken } from "@/db/queries/api-tokens";
import { userIsInstanceAdmin } from "@/db/queries/instance-admins";
import { rolesOfUser } from "@/db/queries/teams";
import { findUserByEmail } from "@/db/queries/users";
import { freshDatabase, urlOfFreshDatabase } from "../support/fresh-database";
import { SERVER_TSX_ARGS } from "../support/server-process";

/**
 * A database `npm run db:migrate` made, as the CLI expects it, with the environment that names it:
 * a SQLite file (TOOLSHED_DB), or on PostgreSQL a copy of the test database (TOOLSHED_DATABASE_URL).
 */
async function migratedDatabase(): Promise<{ db: Db; env: Record<string, string> }> {
  if (usesPostgres()) {
    const db = await freshDatabase();
    return { db, env: { TOOLSHED_DATABASE_URL: urlOfFreshDatabase(db) } };
  }
  const database = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-cli-")), "cli.db");
  await closeDb(migrateDatabase(database));
  return { db: openDb(database), env: { TOOLSHED_DB: database } };
}

const cli = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [...SERVER_TSX_ARGS, "scripts/toolshed.ts", ...args], { env: { ...process.env, ...env }, encoding: "utf8" });

// Each command starts a process that compiles the CLI first: seconds each on a busy machine.
describe("toolshed CLI", { timeout: 60_000 }, () => {
  it("creates a token and prints it alone on standard output; the token then authenticates", async () => {
    const { db, env } = await migratedDatabase();
    const created = cli(env, "token", "create", "--team", "default", "--scope", "read", "--name", "ci");
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^tsk_[\w-]{43}\n$/);
    const principal = await principalOfToken(db, created.stdout.trim());
    expect(principal).toMatchObject({ kind: "token", name: "ci", teamId: "default", scope: "read" });
    const listed = execFileSync(process.execPath, [...SERVER_TSX_ARGS, "scripts/toolshed.ts", "token", "list", "--team", "default"], {
      env: { ...process.env, ...env },
      encoding: "utf8",
    });
    expect(listed).toContain("\tci\tread\t");
    expect(listed).not.toContain(created.stdout.trim());
    const revoked = cli(env, "token", "revoke", "--team", "default", "--id", principal!.id);
    expect(revoked.status).toBe(0);
    expect(await principalOfToken(db, created.stdout.trim())).toBeUndefined();
  });

  it("says what is wrong, on stderr, with exit code 2", async () => {
    const { env } = await migratedDatabase();
    const badScope = cli(env, "token", "create", "--team", "default", "--scope", "root", "--name", "x");
    expect(badScope.status).toBe(2);
    expect(badScope.stdout).toBe("");
    expect(badScope.stderr).toContain("--scope must be one of read, write, admin, instance");
    expect(cli(env, "token", "create", "--team", "nope", "--scope", "read", "--name", "x").stderr).toContain('Team "nope" not found');
  });

  it("makes a token of scope instance, which only the command line makes, and lists it", async () => {
    const { db, env } = await migratedDatabase();
    const created = cli(env, "token", "create", "--team", "default", "--scope", "instance", "--name", "ops");
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^tsk_[\w-]{43}\n$/);
    expect(await principalOfToken(db, created.stdout.trim())).toMatchObject({ kind: "token", name: "ops", teamId: "default", scope: "instance" });
    expect(cli(env, "token", "list", "--team", "default").stdout).toContain("\tops\tinstance\t");
  });

  it("provisions a person with a password and a role, printing their id alone, and makes them instance admin", async () => {
    const { db, env } = await migratedDatabase();
    const created = cli(env, "user", "create", "--email", "Ada@Example.com", "--password", "a long enough password", "--team", "default", "--role", "editor");
    expect(created.status, created.stderr).toBe(0);
    const user = await findUserByEmail(db, "ada@example.com");
    expect(created.stdout).toBe(`${user?.id}\n`);
    expect(await rolesOfUser(db, user!.id)).toEqual({ default: "editor" });
    expect(await userIsInstanceAdmin(db, user!.id)).toBe(false);
    expect(cli(env, "instance-admin", "grant", "--email", "ada@example.com").status).toBe(0);
    expect(await userIsInstanceAdmin(db, user!.id)).toBe(true);
    expect(cli(env, "instance-admin", "list").stdout).toMatch(/^ada@example\.com\tgranted by cli\t/);
    expect(cli(env, "instance-admin", "revoke", "--email", "ada@example.com").status).toBe(0);
    expect(await userIsInstanceAdmin(db, user!.id)).toBe(false);
  });

  it("refuses a bad role, an e-mail that has an account, a short password and an unknown team, saying which", async () => {
    const { env } = await migratedDatabase();
    const create = (email: string, password: string, team: string, role: string) =>
      cli(env, "user", "create", "--email", email, "--password", password, "--team", team, "--role", role);
    const expectations: [ReturnType<typeof cli>, string][] = [
      [create("a@example.com", "a long enough password", "default", "owner"), "--role must be one of viewer, editor, admin."],
      [create("a@example.com", "short", "default", "viewer"), "A password has at least 10 characters."],
      [create("a@example.com", "a long enough password", "nope", "viewer"), 'Team "nope" not found'],
    ];
    expect(create("a@example.com", "a long enough password", "default", "viewer").status).toBe(0);
    expectations.push([create("A@example.com", "a long enough password", "default", "admin"), "a@example.com has an account already."]);
    for (const [result, message] of expectations) {
      expect(result.status, message).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(message);
    }
  });
});
