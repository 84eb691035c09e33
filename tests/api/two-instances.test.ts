import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalog } from "@/db/queries/catalogs";
import { freshDatabase, urlOfFreshDatabase } from "../support/fresh-database";
import { createTestToken } from "./helpers";

/**
 * Two Toolshed instances, each a process of its own (its own caches, pool and MCP connections),
 * on one PostgreSQL database, as behind a load balancer: what one writes, the other answers at
 * its very next request. PostgreSQL only (vitest project "postgres"): two processes share no
 * in-memory SQLite database.
 */

interface Instance {
  url: string;
}

const STARTUP_TIMEOUT_MS = 30_000;

/** The processes started, stopped after the file's tests (also one that failed to start). */
const started: (() => Promise<void>)[] = [];

/** tests/support/toolshed-instance.ts on the database at `databaseUrl`; resolves once it answers. */
function startInstance(databaseUrl: string, name: string): Promise<Instance> {
  const noSources = mkdtempSync(path.join(os.tmpdir(), "toolshed-no-sources-"));
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/toolshed-instance.ts"], {
    env: {
      ...process.env,
      TOOLSHED_DATABASE_URL: databaseUrl,
      TOOLSHED_MCP_SYNC_INTERVAL_MS: "200",
      TOOLSHED_PLUGINS_DIR: noSources,
      TOOLSHED_SKILLS_DIR: noSources,
      TOOLSHED_AGENTS_DIR: noSources,
    },
    // Its log goes to the test's, where a failure's details are.
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  started.push(stop);
  let stdout = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start in time`)), STARTUP_TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${name} exited with ${code}`));
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^listening (\S+)$/m.exec(stdout)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url });
    });
  });
}

describe("two instances on one PostgreSQL database", () => {
  let a: Instance;
  let b: Instance;
  let token: string;

  beforeAll(async () => {
    const db = await freshDatabase();
    await createCatalog(db, { name: "Team", id: "team" }, "tests");
    token = await createTestToken(db, "admin", "two-instances");
    const url = urlOfFreshDatabase(db);
    [a, b] = await Promise.all([startInstance(url, "A"), startInstance(url, "B")]);
  }, 2 * STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(started.map((stop) => stop()));
  });

  async function send(instance: Instance, method: string, pathname: string, body?: unknown) {
    const response = await fetch(new URL(pathname, instance.url), {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname} on ${instance.url}: ${response.status} ${text}`);
    return JSON.parse(text);
  }

  const toolList = async (instance: Instance) =>
    (await send(instance, "POST", "/api/catalogs/team/tool-list", { model: "gpt-5", agent: "build" })) as {
      revision: number;
      tools: { name: string; description: string }[];
    };
  const toolNamed = async (instance: Instance, name: string) => (await toolList(instance)).tools.find((tool) => tool.name === name);
  const toolSearch = (instance: Instance, query: string) => send(instance, "POST", "/api/catalogs/team/tool-search", { model: "gpt-5", agent: "build", query });
  const revision = async (instance: Instance) => ((await send(instance, "GET", "/api/catalogs/team")) as { catalog: { revision: number } }).catalog.revision;

  /** Both instances report the same revision, in the catalog and in their tool lists; returns it. */
  async function sameRevision(): Promise<number> {
    const reported = await Promise.all([revision(a), revision(b), toolList(a).then((list) => list.revision), toolList(b).then((list) => list.revision)]);
    expect(new Set(reported).size).toBe(1);
    return reported[0];
  }

  it("lists on B, at its next request, a tool created and then edited through A", async () => {
    expect(await toolNamed(b, "release_notes")).toBeUndefined();
    const before = await sameRevision();

    await send(a, "POST", "/api/catalogs/team/tools", {
      name: "release_notes",
      summary: "Writes release notes.",
      description: "Writes the release notes of a version.",
      inputSchema: { type: "object" },
    });
    expect(await toolNamed(b, "release_notes")).toMatchObject({ description: "Writes the release notes of a version." });

    await send(a, "PATCH", "/api/catalogs/team/tools/release_notes", { description: "Drafts the release notes of a version from its changes." });
    expect(await toolNamed(b, "release_notes")).toMatchObject({ description: "Drafts the release notes of a version from its changes." });
    expect(await sameRevision()).toBe(before + 2);
  });

  it("refuses on B, at once, a tool disabled through A", async () => {
    await send(a, "POST", "/api/catalogs/team/tools", {
      name: "deploy_preview",
      summary: "Deploys a preview.",
      description: "Deploys a branch to a preview environment.",
      inputSchema: { type: "object" },
    });
    expect((await toolSearch(b, "select:deploy_preview")).tools.map((tool: { name: string }) => tool.name)).toEqual(["deploy_preview"]);

    await send(a, "PATCH", "/api/catalogs/team/tools/deploy_preview", { enabled: false });
    const refused = await toolSearch(b, "select:deploy_preview");
    expect(refused.tools).toEqual([]);
    expect(refused.rejected).toEqual([{ name: "deploy_preview", reason: "not registered: disabled in the catalog" }]);
    await sameRevision();
  });

  it("uses on B, at its next tool list, an agent saved on A", async () => {
    expect(await toolNamed(b, "grep")).toBeDefined();
    const { agent } = await send(a, "GET", "/api/catalogs/team/agents/build");
    await send(a, "PUT", "/api/catalogs/team/agents/build", { ...agent, permissions: [...agent.permissions, { pattern: "grep", action: "deny" }] });
    expect(await toolNamed(b, "grep")).toBeUndefined();
    await sameRevision();
  });
});
