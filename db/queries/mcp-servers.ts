import "server-only";
import { and, asc, eq, inArray, isNotNull, isNull, like } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { decryptSecret, encryptSecret, hostSecretValues, scrubSecrets } from "@/lib/secrets";
import {
  hasSecrets,
  joinMcpSecrets,
  mcpPolicyProblem,
  mcpSecretValues,
  McpServerConfigSchema,
  redactMcpConfig,
  splitMcpSecrets,
  type McpConfigSecrets,
  type McpServerConfig,
} from "@/lib/sources/mcp";
import type { SourceSyncResult, SourceToolDraft } from "@/lib/sources/sync-plan";
import { writeTransaction, type Db } from "../client";
import { auditEntries, mcpServers, mcpUserCredentials, tools } from "../tables";
import type { McpServerRow } from "../schema";
import { type ChangeEntry, recordChanges, recordManyChanges, type Tx } from "./audit";
import { requireCatalog } from "./guards";
import { heldBackToolsOf, type McpHealthChange, mcpHealthChangesOf, recordMcpHealthChange } from "./mcp-health";
import { writeSourceListings } from "./source-tools";

/** A server as pages and the API show it: every secret (env, headers, URL credentials and query values, secret args) is ********. */
export interface McpServerView {
  name: string;
  config: McpServerConfig;
  /** As stored; or "starting", never stored: the instance answering is opening its connection (app/_services/sources.ts). */
  status: McpServerRow["status"] | "starting";
  /** While "starting": since when, and what it waits for. */
  starting: { since: string; message: string } | null;
  lastSyncAt: string | null;
  lastError: string | null;
  toolCount: number;
  registeredCount: number;
  /** Its tools held back until an editor reviews a definition its server changed or added (lib/tools/pinning.ts), in catalog order. */
  heldBack: string[];
  serverInfo: McpServerRow["serverInfo"];
  /** Its last changes of health, newest first (the whole kept history: listMcpHealthChanges). */
  health: McpHealthChange[];
}

/** How many changes of health a server's view carries: the Sources page's strip. */
const MCP_HEALTH_CHANGES_SHOWN = 12;

async function toView(db: Db, row: McpServerRow): Promise<McpServerView> {
  const rows = await db
    .select({ registered: tools.registered })
    .from(tools)
    .where(and(eq(tools.catalogId, row.catalogId), eq(tools.source, "mcp"), eq(tools.sourceRef, row.name)));
  return {
    heldBack: await heldBackToolsOf(db, row.catalogId, row.name),
    name: row.name,
    // Redacted again: a row an older version wrote may still hold its secrets in the clear.
    config: redactMcpConfig(row.config),
    status: row.status,
    starting: null,
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    lastError: row.lastError,
    toolCount: rows.length,
    registeredCount: rows.filter((tool) => tool.registered).length,
    serverInfo: row.serverInfo,
    health: await mcpHealthChangesOf(db, row.id, MCP_HEALTH_CHANGES_SHOWN),
  };
}

/** How a configuration is stored: the public config in the clear, its secrets encrypted (null when it has none). */
function storedForm(config: McpServerConfig): { config: McpServerConfig; secrets: string | null } {
  const split = splitMcpSecrets(config);
  return { config: split.config, secrets: hasSecrets(split.secrets) ? encryptSecret(JSON.stringify(split.secrets)) : null };
}

/** The full configuration of a stored row, secrets decrypted: for connecting, never for showing. */
function fullConfig(row: Pick<McpServerRow, "config" | "secrets">): McpServerConfig {
  if (row.secrets === null) return row.config;
  return joinMcpSecrets(row.config, JSON.parse(decryptSecret(row.secrets)) as McpConfigSecrets);
}

const findRow = async (db: Tx, catalogId: string, name: string): Promise<McpServerRow | undefined> =>
  (
    await db
      .select()
      .from(mcpServers)
      .where(and(eq(mcpServers.catalogId, catalogId), eq(mcpServers.name, name)))
      .limit(1)
  )[0];

export async function listMcpServers(db: Db, catalogId: string): Promise<McpServerView[]> {
  await requireCatalog(db, catalogId);
  const rows = await db.select().from(mcpServers).where(eq(mcpServers.catalogId, catalogId)).orderBy(asc(mcpServers.name));
  const views: McpServerView[] = [];
  for (const row of rows) views.push(await toView(db, row));
  return views;
}

/** The catalog's servers' configurations as they may be shown (every secret ********), by name. */
export async function listMcpServerConfigs(db: Tx, catalogId: string): Promise<McpServerConfig[]> {
  const rows = await db.select({ config: mcpServers.config }).from(mcpServers).where(eq(mcpServers.catalogId, catalogId)).orderBy(asc(mcpServers.name));
  return rows.map((row) => redactMcpConfig(row.config));
}

/** The names of the catalog's servers that hold secrets. */
export async function mcpServersWithSecrets(db: Tx, catalogId: string): Promise<string[]> {
  const rows = await db
    .select({ name: mcpServers.name })
    .from(mcpServers)
    .where(and(eq(mcpServers.catalogId, catalogId), isNotNull(mcpServers.secrets)))
    .orderBy(asc(mcpServers.name));
  return rows.map((row) => row.name);
}

/**
 * Writes servers of a catalog file, inside the caller's transaction: new ones added, existing ones
 * given the new configuration (status back to "never": the next sync connects with it). Each is
 * checked against the operator's policy first (400 on its field). Returns their audit entries.
 */
export async function writeMcpServers(
  tx: Tx,
  catalogId: string,
  configs: McpServerConfig[],
  field: (name: string) => string,
  env: Record<string, string | undefined> = process.env,
): Promise<ChangeEntry[]> {
  const entries: ChangeEntry[] = [];
  for (const config of configs) {
    const problem = mcpPolicyProblem(config, env);
    if (problem) throw new ToolshedError("bad_request", problem.message, `${field(config.name)}.${problem.field}`);
    const stored = storedForm(config);
    const row = await findRow(tx, catalogId, config.name);
    if (row) {
      await tx
        .update(mcpServers)
        .set({ ...stored, status: "never", lastError: null, updatedAt: new Date() })
        .where(eq(mcpServers.id, row.id));
      // People's own credentials were for the mode the server had: none is kept past it (none is needed by a shared server).
      if (credentialsModeOf(row.config) !== credentialsModeOf(config)) await tx.delete(mcpUserCredentials).where(eq(mcpUserCredentials.serverId, row.id));
    } else await tx.insert(mcpServers).values({ catalogId, name: config.name, ...stored });
    const before = row && redactMcpConfig(row.config);
    entries.push({ subjectKind: "setting", subject: `mcp:${config.name}`, action: row ? "update" : "create", before, after: stored.config });
  }
  return entries;
}

const credentialsModeOf = (config: McpServerConfig) => config.credentials?.mode ?? "shared";

/** Deletes servers (not their tools: the caller does), inside the caller's transaction; returns the audit entries. */
export async function deleteMcpServersIn(tx: Tx, catalogId: string, names: string[]): Promise<ChangeEntry[]> {
  const entries: ChangeEntry[] = [];
  for (const name of names) {
    const row = await findRow(tx, catalogId, name);
    if (!row) continue;
    await tx.delete(mcpServers).where(eq(mcpServers.id, row.id));
    entries.push({ subjectKind: "setting", subject: `mcp:${name}`, action: "delete", before: redactMcpConfig(row.config) });
  }
  return entries;
}

/** Every configured server of every catalog, by name (a sync looks each one up when it runs). */
export function allMcpServerNames(db: Db): Promise<{ catalogId: string; name: string }[]> {
  return db.select({ catalogId: mcpServers.catalogId, name: mcpServers.name }).from(mcpServers);
}

/** The servers of these catalogs that each person calls with their own credential, and how they connect. */
export async function perUserMcpServers(
  db: Db,
  catalogIds: string[],
): Promise<{ catalogId: string; name: string; mode: "per-user-secret" | "per-user-oauth" }[]> {
  if (catalogIds.length === 0) return [];
  const rows = await db
    .select({ catalogId: mcpServers.catalogId, name: mcpServers.name, config: mcpServers.config })
    .from(mcpServers)
    .where(inArray(mcpServers.catalogId, catalogIds))
    .orderBy(asc(mcpServers.catalogId), asc(mcpServers.name));
  return rows.flatMap(({ catalogId, name, config }) => {
    const mode = config.credentials?.mode ?? "shared";
    return mode === "shared" ? [] : [{ catalogId, name, mode }];
  });
}

/** The full configuration, secrets decrypted: for connecting, never for showing. */
export async function getMcpServerConfig(db: Db, catalogId: string, name: string): Promise<McpServerConfig> {
  return fullConfig(await requireRow(db, catalogId, name));
}

/**
 * What a server's text is scrubbed of: its secrets and the host's. When its stored secrets cannot be
 * decrypted (another key), the host's alone, and why: no process was started with them then.
 */
function secretsToScrub(row: McpServerRow | undefined): { values: string[]; unreadable?: string } {
  try {
    return { values: [...(row ? mcpSecretValues(fullConfig(row)) : []), ...hostSecretValues()] };
  } catch (error) {
    return { values: hostSecretValues(), unreadable: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Text about a server (an error, its stderr, why it went down) as it may be stored and shown:
 * every secret of the server, and of Toolshed's own environment, masked in each of its encodings.
 */
export async function scrubMcpServerText(db: Db, catalogId: string, name: string, text: string): Promise<string> {
  return scrubSecrets(text, secretsToScrub(await findRow(db, catalogId, name)).values);
}

async function requireRow(db: Tx, catalogId: string, name: string): Promise<McpServerRow> {
  await requireCatalog(db, catalogId);
  const row = await findRow(db, catalogId, name);
  if (!row) throw notFound(`MCP server "${name}" in catalog "${catalogId}"`, "name");
  return row;
}

export async function getMcpServer(db: Db, catalogId: string, name: string): Promise<McpServerView> {
  return toView(db, await requireRow(db, catalogId, name));
}

/** The server's kept changes of health (db/queries/mcp-health.ts), newest first. */
export async function listMcpHealthChanges(db: Db, catalogId: string, name: string): Promise<McpHealthChange[]> {
  return mcpHealthChangesOf(db, (await requireRow(db, catalogId, name)).id);
}

/**
 * Refuses a server that cannot be added: one the operator's policy does not allow (an allowed stdio
 * command, an HTTP host that is not a private IP literal or localhost; 400 on its field), a name
 * the catalog has already (409), or an unknown catalog (404). Checked before anything is started.
 */
export async function checkNewMcpServer(
  db: Tx,
  catalogId: string,
  config: McpServerConfig,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const problem = mcpPolicyProblem(config, env);
  if (problem) throw new ToolshedError("bad_request", problem.message, problem.field);
  await requireCatalog(db, catalogId);
  if (await findRow(db, catalogId, config.name)) {
    throw new ToolshedError("conflict", `An MCP server named "${config.name}" already exists in this catalog.`, "name");
  }
}

/**
 * Adds a server (see checkNewMcpServer: a refused one stores nothing) with the tools its first
 * listing found, if any: one change, one revision. Returns what writing those tools did.
 */
export async function createMcpServer(
  db: Db,
  catalogId: string,
  config: McpServerConfig,
  actor: string,
  env: Record<string, string | undefined> = process.env,
  tools: SourceToolDraft[] = [],
): Promise<SourceSyncResult> {
  const stored = storedForm(config);
  return writeTransaction(db, async (tx) => {
    await checkNewMcpServer(tx, catalogId, config, env);
    await tx.insert(mcpServers).values({ catalogId, name: config.name, ...stored });
    const { result, entries } = await writeSourceListings(tx, catalogId, [
      { source: "mcp", sourceRef: config.name, drafts: tools, mediumFindings: config.mediumFindings },
    ]);
    await recordManyChanges(tx, catalogId, actor, [
      { subjectKind: "setting", subject: `mcp:${config.name}`, action: "create", after: stored.config },
      ...entries,
    ]);
    return result;
  });
}

export async function deleteMcpServer(db: Db, catalogId: string, name: string, actor: string): Promise<void> {
  await writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    const row = await findRow(tx, catalogId, name);
    if (!row) throw notFound(`MCP server "${name}" in catalog "${catalogId}"`, "name");
    await tx.delete(mcpServers).where(eq(mcpServers.id, row.id));
    await recordChanges(tx, catalogId, actor, [{ subjectKind: "setting", subject: `mcp:${name}`, action: "delete", before: redactMcpConfig(row.config) }]);
  });
}

/**
 * Records a sync's outcome, or a request's failure, and adds it to the server's health history if
 * its state changed: connected, held back (connected, with tools that wait for an editor's review
 * of their definition) or failing. The error text is scrubbed of the server's secrets (in all
 * their encodings) before it is stored. A server whose stored secrets cannot be decrypted is
 * recorded as in error, saying so, whatever the outcome reported. A server deleted meanwhile is
 * passed over.
 */
export async function recordMcpHealth(
  db: Db,
  catalogId: string,
  name: string,
  health: { status: "connected" | "error"; lastError: string | null; serverInfo?: McpServerRow["serverInfo"]; toolCount?: number },
): Promise<void> {
  await writeTransaction(db, async (tx) => {
    const row = await findRow(tx, catalogId, name);
    if (!row) return;
    const recorded = scrubbedHealth(row, health);
    await tx
      .update(mcpServers)
      .set({ ...health, ...recorded, lastSyncAt: new Date(), updatedAt: new Date() })
      .where(eq(mcpServers.id, row.id));
    await recordMcpHealthChange(tx, row.id, await healthChange(tx, catalogId, name, recorded));
  });
}

/** What a server's change of health says: failing with its error; connected, or held back with the tools that wait for review. */
async function healthChange(tx: Tx, catalogId: string, name: string, recorded: { status: "connected" | "error"; lastError: string | null }) {
  if (recorded.status === "error") return { state: "failing" as const, cause: recorded.lastError };
  const heldBack = await heldBackToolsOf(tx, catalogId, name);
  if (heldBack.length === 0) return { state: "connected" as const, cause: recorded.lastError };
  const shown = heldBack.length > HELD_BACK_NAMED ? [...heldBack.slice(0, HELD_BACK_NAMED), "…"] : heldBack;
  const waiting = `${heldBack.length} tool(s) held back until an editor reviews their definition (Tools page): ${shown.join(", ")}.`;
  return { state: "held-back" as const, cause: recorded.lastError === null ? waiting : `${waiting} ${recorded.lastError}` };
}

const HELD_BACK_NAMED = 5;

/**
 * Records that this instance is opening the server's connection (its health history's "starting"),
 * with what that waits for, scrubbed of the server's secrets. A server not stored (yet: one being
 * added is stored once listed) is passed over.
 */
export async function recordMcpStarting(db: Db, catalogId: string, name: string, message: string): Promise<void> {
  await writeTransaction(db, async (tx) => {
    const row = await findRow(tx, catalogId, name);
    if (row) await recordMcpHealthChange(tx, row.id, { state: "starting", cause: scrubSecrets(message, secretsToScrub(row).values) });
  });
}

/** The status and error of a health report as stored: scrubbed, or in error when the server's secrets cannot be read. */
function scrubbedHealth(row: McpServerRow, health: { status: "connected" | "error"; lastError: string | null }) {
  const { values, unreadable } = secretsToScrub(row);
  const reported = health.lastError === null ? null : scrubSecrets(health.lastError, values);
  if (unreadable === undefined) return { status: health.status, lastError: reported };
  return {
    status: "error" as const,
    lastError: [
      `The server's stored secrets cannot be read, so it cannot be connected: ${unreadable}`,
      ...(reported === null || reported === unreadable ? [] : [reported]),
    ].join(" "),
  };
}

/**
 * Converts what older versions wrote: a server whose secrets are in the clear in `config` (and
 * `secrets` null) gets its public config and encrypted secrets, its `lastError` scrubbed, and the
 * MCP audit entries that showed URL credentials or secret arguments redacted. Safe to run at
 * every start: converted rows are left alone. Returns how many servers were converted.
 */
export async function encryptStoredMcpSecrets(db: Db): Promise<number> {
  return writeTransaction(db, async (tx) => {
    let converted = 0;
    for (const row of await tx.select().from(mcpServers).where(isNull(mcpServers.secrets))) {
      const stored = storedForm(row.config);
      if (stored.secrets === null) continue;
      const lastError = row.lastError === null ? null : scrubSecrets(row.lastError, [...mcpSecretValues(row.config), ...hostSecretValues()]);
      await tx
        .update(mcpServers)
        .set({ ...stored, lastError })
        .where(eq(mcpServers.id, row.id));
      converted++;
    }
    const entries = await tx
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectKind, "setting"), like(auditEntries.subject, "mcp:%")));
    for (const entry of entries) {
      const [before, after] = [entry.before, entry.after].map(redactedIfConfig);
      if (JSON.stringify([before, after]) !== JSON.stringify([entry.before, entry.after])) {
        await tx.update(auditEntries).set({ before, after }).where(eq(auditEntries.id, entry.id));
      }
    }
    return converted;
  });
}

function redactedIfConfig(value: unknown): unknown {
  const parsed = McpServerConfigSchema.safeParse(value);
  return parsed.success ? redactMcpConfig(parsed.data) : value;
}
