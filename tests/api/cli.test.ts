import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDb, type Db, migrateDatabase, openDb } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { principalOfToken } from "@/db/queries/api-tokens";
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

describe("toolshed CLI", () => {
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
    expect(badScope.stderr).toContain("--scope must be one of read, write, admin");
    expect(cli(env, "token", "create", "--team", "nope", "--scope", "read", "--name", "x").stderr).toContain('Team "nope" not found');
  });
});
