import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { AgentMode, PermissionRule } from "../lib/rules/agents";
import type { ModelRule } from "../lib/rules/model-rules";
import type { DefinitionOverride } from "../lib/rules/overrides";
import type { ProviderProfile } from "../lib/rules/providers";
import type { McpServerConfig } from "../lib/sources/mcp/config";
import type { InputSchema, ToolRequirements, ToolSource } from "../lib/tools/types";

const timestamps = {
  createdAt: integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
};

export const catalogs = sqliteTable("catalogs", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  /** Bumped by every change to the catalog or anything in it; decisions record it. */
  revision: integer("revision").notNull().default(0),
  ...timestamps,
});

export const tools = sqliteTable(
  "tools",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    source: text("source").$type<ToolSource>().notNull(),
    summary: text("summary").notNull(),
    description: text("description").notNull(),
    inputSchema: text("input_schema", { mode: "json" }).$type<InputSchema>().notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    registered: integer("registered", { mode: "boolean" }).notNull().default(true),
    requires: text("requires", { mode: "json" }).$type<ToolRequirements>().notNull().default(sql`'{}'`),
    /** Which server, plugin file or skill folder the tool came from; null for built-in and custom tools. */
    sourceRef: text("source_ref"),
    /** What calling the tool needs, e.g. its name on the MCP server. */
    meta: text("meta", { mode: "json" }).$type<{ mcpName?: string }>(),
    ...timestamps,
  },
  (table) => [uniqueIndex("tools_catalog_name").on(table.catalogId, table.name), index("tools_source_ref").on(table.catalogId, table.source, table.sourceRef)],
);

export const auditEntries = sqliteTable(
  "audit_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    /** The catalog revision this change produced. */
    revision: integer("revision").notNull(),
    subjectKind: text("subject_kind").notNull(),
    subject: text("subject").notNull(),
    action: text("action").notNull(),
    actor: text("actor").notNull(),
    before: text("before", { mode: "json" }).$type<unknown>(),
    after: text("after", { mode: "json" }).$type<unknown>(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("audit_catalog_subject").on(table.catalogId, table.subjectKind, table.subject)],
);

export type CatalogRow = typeof catalogs.$inferSelect;
export type ToolRow = typeof tools.$inferSelect;
export type AuditRow = typeof auditEntries.$inferSelect;

/** Facts about this installation, such as whether the demo catalog was ever created. */
export const appSettings = sqliteTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).$type<unknown>().notNull(),
});

/** The data that drives a catalog's pipeline, edited as ordered lists (see lib/rules). */
export const catalogRules = sqliteTable("catalog_rules", {
  catalogId: text("catalog_id")
    .primaryKey()
    .references(() => catalogs.id, { onDelete: "cascade" }),
  modelRules: text("model_rules", { mode: "json" }).$type<ModelRule[]>().notNull(),
  providers: text("providers", { mode: "json" }).$type<ProviderProfile[]>().notNull(),
  overrides: text("overrides", { mode: "json" }).$type<DefinitionOverride[]>().notNull(),
  searchServiceConfigured: integer("search_service_configured", { mode: "boolean" }).notNull().default(false),
});

export const agents = sqliteTable(
  "agents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    mode: text("mode").$type<AgentMode>().notNull(),
    description: text("description").notNull().default(""),
    permissions: text("permissions", { mode: "json" }).$type<PermissionRule[]>().notNull(),
    baseTools: text("base_tools", { mode: "json" }).$type<string[]>().notNull(),
    ...timestamps,
  },
  (table) => [uniqueIndex("agents_catalog_name").on(table.catalogId, table.name)],
);

export type CatalogRulesRow = typeof catalogRules.$inferSelect;
export type AgentRow = typeof agents.$inferSelect;

/** A playground or API conversation: the unit that tool history is carried across. */
export const conversations = sqliteTable("conversations", {
  id: text("id").primaryKey(),
  catalogId: text("catalog_id")
    .notNull()
    .references(() => catalogs.id, { onDelete: "cascade" }),
  title: text("title").notNull().default(""),
  model: text("model").notNull(),
  agent: text("agent").notNull(),
  mode: text("mode"),
  flags: text("flags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  /** Every tool selected or found earlier in the conversation, first occurrence first. */
  history: text("history", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  ...timestamps,
});

export const conversationMessages = sqliteTable(
  "conversation_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    role: text("role").$type<"user" | "assistant" | "system" | "tool">().notNull(),
    content: text("content").notNull(),
    /** What the playground shows beside the text: tool calls, results, the turn's decisions. */
    details: text("details", { mode: "json" }).$type<unknown>(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("messages_conversation").on(table.conversationId, table.id)],
);

/** Every preselection and ToolSearch call, with all it needs to be explained and replayed. */
export const decisions = sqliteTable(
  "decisions",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").references(() => conversations.id, { onDelete: "set null" }),
    revision: integer("revision").notNull(),
    kind: text("kind").$type<"preselect" | "tool-search">().notNull(),
    path: text("path").$type<"preselect" | "exact" | "semantic">().notNull(),
    model: text("model").notNull(),
    agent: text("agent").notNull(),
    mode: text("mode"),
    flags: text("flags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    input: text("input", { mode: "json" }).$type<unknown>().notNull(),
    selector: text("selector"),
    fallback: text("fallback", { mode: "json" }).$type<{ from: string; cause: string } | null>(),
    raw: text("raw", { mode: "json" }).$type<unknown>(),
    result: text("result", { mode: "json" }).$type<unknown>().notNull(),
    rejected: text("rejected", { mode: "json" }).$type<{ name: string; reason: string }[]>().notNull(),
    latencyMs: real("latency_ms").notNull(),
    tokens: text("tokens", { mode: "json" }).$type<Record<string, number>>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("decisions_catalog_created").on(table.catalogId, table.createdAt), index("decisions_conversation").on(table.conversationId)],
);

export type ConversationRow = typeof conversations.$inferSelect;
export type DecisionRow = typeof decisions.$inferSelect;

/** A catalog's MCP servers: how to reach them (secrets included, never shown again) and their health. */
export const mcpServers = sqliteTable(
  "mcp_servers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    config: text("config", { mode: "json" }).$type<McpServerConfig>().notNull(),
    status: text("status").$type<"never" | "connected" | "error">().notNull().default("never"),
    lastSyncAt: integer("last_sync_at", { mode: "timestamp_ms" }),
    lastError: text("last_error"),
    toolCount: integer("tool_count").notNull().default(0),
    serverInfo: text("server_info", { mode: "json" }).$type<{ name: string; version: string; title?: string }>(),
    ...timestamps,
  },
  (table) => [uniqueIndex("mcp_servers_catalog_name").on(table.catalogId, table.name)],
);

export type McpServerRow = typeof mcpServers.$inferSelect;
