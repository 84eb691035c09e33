import { and, asc, eq } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { redactMcpConfig, type McpServerConfig } from "@/lib/sources/mcp";
import type { Db } from "../client";
import { mcpServers, tools, type McpServerRow } from "../schema";
import { recordChanges } from "./audit";
import { requireCatalog } from "./guards";

/** A server as pages and the API show it: secrets (env values, header values) are never included. */
export interface McpServerView {
  name: string;
  config: McpServerConfig;
  status: McpServerRow["status"];
  lastSyncAt: string | null;
  lastError: string | null;
  toolCount: number;
  registeredCount: number;
  serverInfo: McpServerRow["serverInfo"];
}

function toView(db: Db, row: McpServerRow): McpServerView {
  const rows = db.select({ registered: tools.registered }).from(tools).where(and(eq(tools.catalogId, row.catalogId), eq(tools.source, "mcp"), eq(tools.sourceRef, row.name))).all();
  return {
    name: row.name,
    config: redactMcpConfig(row.config),
    status: row.status,
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    lastError: row.lastError,
    toolCount: rows.length,
    registeredCount: rows.filter((tool) => tool.registered).length,
    serverInfo: row.serverInfo,
  };
}

export function listMcpServers(db: Db, catalogId: string): McpServerView[] {
  requireCatalog(db, catalogId);
  return db.select().from(mcpServers).where(eq(mcpServers.catalogId, catalogId)).orderBy(asc(mcpServers.name)).all().map((row) => toView(db, row));
}

/** Every configured server of every catalog, with its secrets: for connecting, never for showing. */
export function allMcpServerConfigs(db: Db): { catalogId: string; config: McpServerConfig }[] {
  return db.select({ catalogId: mcpServers.catalogId, config: mcpServers.config }).from(mcpServers).all();
}

export function getMcpServerConfig(db: Db, catalogId: string, name: string): McpServerConfig {
  requireCatalog(db, catalogId);
  const row = db.select().from(mcpServers).where(and(eq(mcpServers.catalogId, catalogId), eq(mcpServers.name, name))).get();
  if (!row) throw notFound(`MCP server "${name}" in catalog "${catalogId}"`, "name");
  return row.config;
}

export function getMcpServer(db: Db, catalogId: string, name: string): McpServerView {
  getMcpServerConfig(db, catalogId, name);
  return toView(db, db.select().from(mcpServers).where(and(eq(mcpServers.catalogId, catalogId), eq(mcpServers.name, name))).get()!);
}

export function createMcpServer(db: Db, catalogId: string, config: McpServerConfig, actor: string): McpServerView {
  return db.transaction((tx) => {
    requireCatalog(tx, catalogId);
    if (tx.select({ id: mcpServers.id }).from(mcpServers).where(and(eq(mcpServers.catalogId, catalogId), eq(mcpServers.name, config.name))).get()) {
      throw new ToolshedError("conflict", `An MCP server named "${config.name}" already exists in this catalog.`, "name");
    }
    const row = tx.insert(mcpServers).values({ catalogId, name: config.name, config }).returning().get();
    recordChanges(tx, catalogId, actor, [{ subjectKind: "setting", subject: `mcp:${config.name}`, action: "create", after: redactMcpConfig(config) }]);
    return toView(tx as unknown as Db, row);
  });
}

export function deleteMcpServer(db: Db, catalogId: string, name: string, actor: string): void {
  db.transaction((tx) => {
    const config = getMcpServerConfig(tx as unknown as Db, catalogId, name);
    tx.delete(mcpServers).where(and(eq(mcpServers.catalogId, catalogId), eq(mcpServers.name, name))).run();
    recordChanges(tx, catalogId, actor, [{ subjectKind: "setting", subject: `mcp:${name}`, action: "delete", before: redactMcpConfig(config) }]);
  });
}

export function recordMcpHealth(
  db: Db,
  catalogId: string,
  name: string,
  health: { status: "connected" | "error"; lastError: string | null; serverInfo?: McpServerRow["serverInfo"]; toolCount?: number },
): void {
  db.update(mcpServers)
    .set({ ...health, lastSyncAt: new Date(), updatedAt: new Date() })
    .where(and(eq(mcpServers.catalogId, catalogId), eq(mcpServers.name, name)))
    .run();
}
