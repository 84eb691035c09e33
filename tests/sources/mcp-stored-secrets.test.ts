import { asc, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { createCatalog } from "@/db/queries/catalogs";
import {
  createMcpServer,
  deleteMcpServer,
  encryptStoredMcpSecrets,
  getMcpServer,
  getMcpServerConfig,
  listMcpServers,
  recordMcpHealth,
} from "@/db/queries/mcp-servers";
import { seed } from "@/db/seed";
import { auditEntries, mcpServers } from "@/db/tables";
import { decryptSecret, secretForms } from "@/lib/secrets";
import type { McpServerConfig } from "@/lib/sources/mcp";
import { withEnv } from "./helpers";
import { freshDatabase } from "../support/fresh-database";

const CANARY = "Canary7fQ2-secret";

/** A stdio and an HTTP configuration with the canary in every place a secret can be. */
const STDIO: McpServerConfig = {
  name: "local",
  transport: "stdio",
  command: "node",
  args: ["mcp-servers/demo-server.mjs", "--key", { value: CANARY, secret: true }],
  env: { DEMO_MCP_TOKEN: CANARY },
};
const HTTP: McpServerConfig = {
  name: "remote",
  transport: "http",
  url: `https://user:${CANARY}@mcp.example.com/mcp?key=${CANARY}&mode=fast`,
  headers: { Authorization: `Bearer ${CANARY}`, "X-Api-Key": CANARY },
};

/** The servers' rows as stored, their config as its JSON text. */
const storedRows = (db: Db) =>
  db
    .select({ name: mcpServers.name, config: sql<string>`${mcpServers.config}`, secrets: mcpServers.secrets, lastError: mcpServers.lastError })
    .from(mcpServers)
    .orderBy(asc(mcpServers.name));

/** Fails when the canary shows in `text` in any form the scrubber knows (plain, base64, hex, URL-encoded). */
function expectNoCanary(text: string, where: string) {
  for (const form of secretForms(CANARY)) expect(text, `${where} holds the canary as ${form}`).not.toContain(form);
}

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, "test");
});

describe("stored MCP secrets", () => {
  it("stores the public config in the clear and the secrets encrypted; connecting gets the full config back", async () => {
    for (const config of [STDIO, HTTP])
      await createMcpServer(db, "team", config, "test", { TOOLSHED_MCP_STDIO_COMMANDS: "node mcp-servers/demo-server.mjs env=DEMO_MCP_TOKEN" });
    const rows = await storedRows(db);
    for (const row of rows) {
      expectNoCanary(String(row.config), `config of ${row.name}`);
      expectNoCanary(String(row.secrets), `secrets of ${row.name}`);
      expect(String(row.secrets)).toMatch(/^v1\./);
      expect(decryptSecret(String(row.secrets))).toContain(CANARY);
    }
    expect(JSON.parse(String(rows[1].config)).url).toBe("https://********:********@mcp.example.com/mcp?key=********&mode=********");
    expect(await getMcpServerConfig(db, "team", "local")).toEqual(STDIO);
    expect(await getMcpServerConfig(db, "team", "remote")).toEqual(HTTP);

    expect((await getMcpServer(db, "team", "local")).config).toEqual({
      ...STDIO,
      args: ["mcp-servers/demo-server.mjs", "--key", { value: "********", secret: true }],
      env: { DEMO_MCP_TOKEN: "********" },
    });
    await recordMcpHealth(db, "team", "remote", {
      status: "error",
      lastError: `upstream said ${Buffer.from(`user:${CANARY}`).toString("base64")} and ${encodeURIComponent(CANARY)}`,
    });
    await deleteMcpServer(db, "team", "local", "test");
    expectNoCanary(JSON.stringify(await listMcpServers(db, "team")), "the views");
    expectNoCanary(JSON.stringify(await listAudit(db, "team")), "the audit entries");
    // The edges of a masked base64 run may stay (they mix in the neighbouring bytes): a few bits, not the secret.
    expect((await listMcpServers(db, "team"))[0].lastError).toMatch(/^upstream said \S*\*{8}\S* and \*{8}$/);
  });

  it("records a server whose stored secrets cannot be decrypted (another key) as unhealthy, saying why, instead of throwing", async () => {
    await createMcpServer(db, "team", HTTP, "test");
    await recordMcpHealth(db, "team", "remote", { status: "connected", lastError: null, toolCount: 3 });
    await withEnv({ TOOLSHED_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") }, () =>
      recordMcpHealth(db, "team", "remote", { status: "error", lastError: "Disconnected: the connection closed." }),
    );
    const server = await getMcpServer(db, "team", "remote");
    expect(server.status).toBe("error");
    expect(server.lastError).toMatch(/stored secrets .*could not be decrypted.*TOOLSHED_SECRET_KEY/);
    expect(server.lastError).toContain("Disconnected: the connection closed.");
  });

  it("converts rows an older version wrote with secrets in the clear, at every start and only once", async () => {
    await db.insert(mcpServers).values([
      { catalogId: "team", name: "local", config: STDIO, lastError: `crashed: DEMO_MCP_TOKEN=${CANARY}` },
      { catalogId: "team", name: "remote", config: HTTP },
      { catalogId: "team", name: "plain", config: { name: "plain", transport: "http", url: "https://mcp.example.com/mcp" } },
    ]);
    // Older versions hid env and header values in audit entries, but not URL credentials or args.
    await db.insert(auditEntries).values({
      catalogId: "team",
      revision: 1,
      subjectKind: "setting",
      subject: "mcp:remote",
      action: "create",
      actor: "web",
      after: { ...HTTP, headers: { Authorization: "********", "X-Api-Key": "********" } },
    });

    await seed(db, { demo: false });
    const rows = await storedRows(db);
    expectNoCanary(JSON.stringify(rows), "the converted rows");
    expect(rows.map((row) => [row.name, row.secrets === null])).toEqual([
      ["local", false],
      ["plain", true],
      ["remote", false],
    ]);
    expect(rows[0].lastError).toBe("crashed: DEMO_MCP_TOKEN=********");
    expect(await getMcpServerConfig(db, "team", "local")).toEqual(STDIO);
    expect(await getMcpServerConfig(db, "team", "remote")).toEqual(HTTP);
    expectNoCanary(JSON.stringify(await listAudit(db, "team")), "the audit entries");

    const converted = JSON.stringify(rows);
    expect(await encryptStoredMcpSecrets(db)).toBe(0);
    expect(JSON.stringify(await storedRows(db))).toBe(converted);
  });

  it("refuses at creation what the operator's policy refuses, storing nothing", async () => {
    const strict = { TOOLSHED_MCP_STDIO_COMMANDS: "node mcp-servers/demo-server.mjs" };
    await expect(createMcpServer(db, "team", { name: "evil", transport: "stdio", command: "sh", args: ["-c", "id"] }, "test", strict)).rejects.toThrow(
      expect.objectContaining({ code: "bad_request", field: "command" }),
    );
    await expect(createMcpServer(db, "team", { name: "meta", transport: "http", url: "http://169.254.169.254/mcp" }, "test", strict)).rejects.toThrow(
      expect.objectContaining({ code: "bad_request", field: "url" }),
    );
    expect(await listMcpServers(db, "team")).toEqual([]);
    expect((await listAudit(db, "team")).filter((entry) => entry.subject.startsWith("mcp:"))).toEqual([]);
  });

  it("leaves the demo server out of a new demo catalog when the operator's allowlist does not hold it", async () => {
    const saved = process.env.TOOLSHED_MCP_STDIO_COMMANDS;
    process.env.TOOLSHED_MCP_STDIO_COMMANDS = "uvx some-server";
    try {
      const fresh = await freshDatabase();
      await seed(fresh, { demo: true });
      expect(await listMcpServers(fresh, "demo")).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TOOLSHED_MCP_STDIO_COMMANDS;
      else process.env.TOOLSHED_MCP_STDIO_COMMANDS = saved;
    }
    const fresh = await freshDatabase();
    await seed(fresh, { demo: true });
    expect((await listMcpServers(fresh, "demo")).map((server) => server.name)).toEqual(["notes"]);
  });
});
