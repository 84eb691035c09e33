import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDb, type Db, migrateDatabase, openDb } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { createMcpServer, getMcpServerConfig, listMcpServers } from "@/db/queries/mcp-servers";
import { createCustomTool, findTool } from "@/db/queries/tools";
import { freshDatabase, urlOfFreshDatabase } from "../support/fresh-database";
import { SERVER_TSX_ARGS } from "../support/server-process";

/** A migrated database and the environment that names it for the CLI (as tests/api/cli.test.ts makes them). */
async function migratedDatabase(): Promise<{ db: Db; env: Record<string, string> }> {
  if (usesPostgres()) {
    const db = await freshDatabase();
    return { db, env: { TOOLSHED_DATABASE_URL: urlOfFreshDatabase(db) } };
  }
  const database = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-cli-code-")), "cli.db");
  await closeDb(migrateDatabase(database));
  return { db: openDb(database), env: { TOOLSHED_DB: database } };
}

const cli = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [...SERVER_TSX_ARGS, "scripts/toolshed.ts", ...args], { env: { ...process.env, ...env }, encoding: "utf8" });

// Each command starts a process that compiles the CLI first: seconds each on a busy machine.
describe("toolshed export and apply", { timeout: 120_000 }, () => {
  it("exports a catalog with its secrets as references, and applies it elsewhere with them read from the environment", async () => {
    const { db, env } = await migratedDatabase();
    await createCatalog(db, { name: "Origin", id: "origin" }, "test");
    await createCustomTool(db, "origin", { name: "lookup_order", summary: "Find an order.", description: "", inputSchema: { type: "object" } }, "test");
    const server = { name: "gh", transport: "http" as const, url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ghp_origin" } };
    await createMcpServer(db, "origin", server, "test");
    await createCatalog(db, { name: "Copy", id: "copy" }, "test");

    const exported = cli(env, "export", "--catalog", "origin");
    expect(exported.status).toBe(0);
    expect(exported.stdout).toContain(`Authorization: \${env:GH_AUTHORIZATION}`);
    expect(exported.stdout).not.toContain("ghp_origin");
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-catalog-file-")), "origin.yaml");
    writeFileSync(file, exported.stdout);
    const revision = (await getCatalog(db, "copy")).revision;

    const dry = cli(env, "apply", "-f", file, "--catalog", "copy", "--dry-run");
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain("+ tools/lookup_order\n+ mcpServers/gh\n");
    expect(dry.stderr).toContain("nothing was written");

    const missing = cli({ ...env, GH_AUTHORIZATION: "" }, "apply", "-f", file, "--catalog", "copy");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("mcpServers.0.headers.Authorization");
    expect((await getCatalog(db, "copy")).revision).toBe(revision);
    expect(await findTool(db, "copy", "lookup_order")).toBeUndefined();
    expect(await listMcpServers(db, "copy")).toEqual([]);

    const applied = cli({ ...env, GH_AUTHORIZATION: "Bearer ghp_copy" }, "apply", "-f", file, "--catalog", "copy");
    expect(applied.status).toBe(0);
    expect(applied.stderr).toContain(`revision ${revision + 1}`);
    expect(await getMcpServerConfig(db, "copy", "gh")).toEqual({ ...server, headers: { Authorization: "Bearer ghp_copy" } });

    const again = cli(env, "apply", "-f", file, "--catalog", "copy");
    expect(again.stdout).toMatch(/^\d+ unchanged\n$/);
    expect(again.stderr).toContain("Nothing to change");
    expect(cli(env, "export", "--catalog", "copy").stdout).toBe(exported.stdout);

    // A reader that is gone before the file is written (`| head`, here `| true`): no crash, and success.
    const command = [process.execPath, ...SERVER_TSX_ARGS, "scripts/toolshed.ts", "export", "--catalog", "copy"].map((word) => `'${word}'`).join(" ");
    const piped = spawnSync("bash", ["-o", "pipefail", "-c", `${command} | true`], { env: { ...process.env, ...env }, encoding: "utf8" });
    expect(piped.stderr).not.toContain("EPIPE");
    expect(piped.status).toBe(0);
  });

  it("names every problem of an invalid file at its path", async () => {
    const { db, env } = await migratedDatabase();
    await createCatalog(db, { name: "Copy", id: "copy" }, "test");
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-catalog-file-")), "bad.yaml");
    writeFileSync(file, "format: toolshed.catalog\nversion: 2\ntools:\n  - {name: 'bad name', summary: x, description: '', inputSchema: {type: string}}\n");
    const refused = cli(env, "apply", "-f", file, "--catalog", "copy");
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("tools.0.name: ");
    expect(refused.stderr).toContain("tools.0.inputSchema.type: ");
  });
});
