import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { AgentMode, PermissionRule } from "../lib/rules/agents";
import type { ModelRule } from "../lib/rules/model-rules";
import type { DefinitionOverride } from "../lib/rules/overrides";
import type { ProviderProfile } from "../lib/rules/providers";
import type { ImportJobError, ImportProgress } from "../lib/catalogs/import-job";
import type { ImportResult } from "../lib/catalogs/import-plan";
import type { McpServerConfig } from "../lib/sources/mcp/config";
import type { McpHealthState } from "../lib/sources/mcp/health";
import type { PinnedDefinition } from "../lib/tools/pinning";
import type { DecisionKind, DecisionPath } from "../lib/selection/types";
import type { InputSchema, ToolMeta, ToolRequirements, ToolSource } from "../lib/tools/types";

const timestamps = {
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
};

export const catalogs = sqliteTable(
  "catalogs",
  {
    id: text("id").primaryKey(),
    /** The team that owns the catalog; its members' roles decide who may do what in it. */
    teamId: text("team_id").notNull().default("default"),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Bumped by every change to the catalog or anything in it; decisions record it. */
    revision: integer("revision").notNull().default(0),
    ...timestamps,
  },
  (table) => [index("catalogs_team").on(table.teamId)],
);

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
    meta: text("meta", { mode: "json" }).$type<ToolMeta>(),
    /**
     * The tags its source gave it at the last sync; null for built-in and custom tools. Tags that
     * differ from them are a person's choice, which a sync keeps.
     */
    sourceTags: text("source_tags", { mode: "json" }).$type<string[]>(),
    /**
     * MCP tools: the definition an editor approved (lib/tools/pinning.ts); the tool is held back
     * while its current one differs. Null: never approved (its server added it after its first listing).
     */
    approvedDefinition: text("approved_definition", { mode: "json" }).$type<PinnedDefinition>(),
    /** The digest of the definition an editor last rejected: that change is no longer asked about. */
    rejectedDigest: text("rejected_digest"),
    /**
     * Set by the database on every insert and update (triggers of migration tool_row_versions), from
     * a counter that grows with each write: what changed since a version an instance already has.
     */
    rowVersion: integer("row_version").notNull().default(0),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("tools_catalog_name").on(table.catalogId, table.name),
    index("tools_source_ref").on(table.catalogId, table.source, table.sourceRef),
    index("tools_row_version").on(table.catalogId, table.rowVersion),
  ],
);

/** A tool deleted, at the version its deletion took (a trigger writes it): an instance that has the tool drops it. */
export const toolDeletions = sqliteTable(
  "tool_deletions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catalogId: text("catalog_id").notNull(),
    toolId: integer("tool_id").notNull(),
    rowVersion: integer("row_version").notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("tool_deletions_catalog").on(table.catalogId, table.rowVersion), index("tool_deletions_created").on(table.createdAt)],
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
  /** Who started it (`user:<id>` or `token:<id>`): they may delete it, as editors may; null before owners were recorded. */
  owner: text("owner"),
  ...timestamps,
});

/**
 * A conversation's tool history: every tool selected or found earlier in it, one row each, in the
 * order they joined (first occurrence first). A row per entry (not a JSON array rewritten on every
 * append) so that concurrent appends cannot lose each other's entries.
 */
export const conversationTools = sqliteTable(
  "conversation_tools",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [uniqueIndex("conversation_tools_conversation_name").on(table.conversationId, table.name)],
);

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

/** Every preselection, ToolSearch call and MCP gateway tool call, with all it needs to be explained and replayed. */
export const decisions = sqliteTable(
  "decisions",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").references(() => conversations.id, { onDelete: "set null" }),
    revision: integer("revision").notNull(),
    kind: text("kind").$type<DecisionKind>().notNull(),
    path: text("path").$type<DecisionPath>().notNull(),
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

/**
 * Hourly usage per tool, agent and model, added to in the same write as each decision
 * (db/queries/usage-rollups.ts), so that the Usage page's figures outlive the decisions' retention.
 * A row per latency bucket (lib/usage/latency-histogram.ts) holds the calls answered in that
 * bucket: percentiles are read from them; -1 holds what has no latency (offers, finds, refusals).
 */
export const usageRollups = sqliteTable(
  "usage_rollups",
  {
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    /** The hour's start. */
    hour: integer("hour", { mode: "timestamp_ms" }).notNull(),
    tool: text("tool").notNull(),
    agent: text("agent").notNull(),
    model: text("model").notNull(),
    latencyBucket: integer("latency_bucket").notNull(),
    calls: integer("calls").notNull().default(0),
    refused: integer("refused").notNull().default(0),
    timeouts: integer("timeouts").notNull().default(0),
    upstreamErrors: integer("upstream_errors").notNull().default(0),
    cancelled: integer("cancelled").notNull().default(0),
    offered: integer("offered").notNull().default(0),
    calledWhenOffered: integer("called_when_offered").notNull().default(0),
    foundBySearch: integer("found_by_search").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.catalogId, table.hour, table.tool, table.agent, table.model, table.latencyBucket] })],
);

/**
 * Reports of use that a catalog's selector learns from (lib/selection/learned.ts): the words of a
 * request and the tool used for it (reported over the API or seen in a gateway or playground
 * conversation). Read in id order, so every instance catches up from the last id it has.
 */
export const usageReports = sqliteTable(
  "usage_reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    /** The words that led to the tool: the request, or the part of it that asked for this tool. */
    text: text("text").notNull(),
    /** Who reported it (a principal key): one caller's weight per tool is capped. */
    caller: text("caller").notNull(),
    strength: real("strength").notNull(),
    /** Where one use was seen (conversation, message or query, tool): the same use reported again counts once. */
    dedupeKey: text("dedupe_key"),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    index("usage_reports_catalog_id").on(table.catalogId, table.id),
    index("usage_reports_created").on(table.createdAt),
    uniqueIndex("usage_reports_dedupe").on(table.catalogId, table.dedupeKey),
  ],
);

export type ConversationRow = typeof conversations.$inferSelect;
export type DecisionRow = typeof decisions.$inferSelect;

/** One labelled case of an evaluation: a request and the tools it needs. */
export interface EvaluationCase {
  query: string;
  expected: string[];
}

/**
 * Runs of labelled cases against a catalog's selector, each kept with the catalog revision it ran
 * on, so a description edit that hurts selection shows as a regression over revisions.
 */
export const evaluations = sqliteTable(
  "evaluations",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    /** The set's name, as imported or given; runs of one set are compared with each other. */
    setName: text("set_name").notNull(),
    selector: text("selector").notNull(),
    k: integer("k").notNull(),
    status: text("status").$type<"running" | "done" | "failed">().notNull(),
    cases: text("cases", { mode: "json" }).$type<EvaluationCase[]>().notNull(),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull(),
    metrics: text("metrics", { mode: "json" }).$type<Record<string, number>>(),
    misses: text("misses", { mode: "json" }).$type<unknown[]>(),
    error: text("error"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamps.createdAt,
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /**
     * Written while the run runs (by whichever instance runs it): a running row whose heartbeat is
     * older than the staleness limit lost its instance, and any instance's read marks it failed.
     */
    heartbeatAt: integer("heartbeat_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("evaluations_catalog_created").on(table.catalogId, table.createdAt)],
);

export type EvaluationRow = typeof evaluations.$inferSelect;

/**
 * Embedding vectors per embedding model and tool definition hash, so a tool is embedded again only
 * when its definition changes. Shared by catalogs: a vector is a function of the definition text
 * alone, and is found only by the hash of a definition the caller already holds.
 */
export const toolEmbeddings = sqliteTable(
  "tool_embeddings",
  {
    model: text("model").notNull(),
    definitionHash: text("definition_hash").notNull(),
    dimensions: integer("dimensions").notNull(),
    /** Float32 values, little-endian. */
    vector: blob("vector", { mode: "buffer" }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [primaryKey({ columns: [table.model, table.definitionHash] })],
);

/** A catalog's MCP servers: how to reach them (secrets included, never shown again) and their health. */
export const mcpServers = sqliteTable(
  "mcp_servers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The configuration with every secret replaced by a placeholder: safe to read anywhere. */
    config: text("config", { mode: "json" }).$type<McpServerConfig>().notNull(),
    /** The secret values the placeholders stand for, encrypted (AES-256-GCM, lib/secrets). */
    secrets: text("secrets"),
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

/**
 * Each person's own credential for an MCP server whose credentials are per person
 * (lib/sources/mcp/config.ts): the secret they entered, or their OAuth client registration, PKCE
 * verifier and tokens at the server's authorization server, encrypted (lib/secrets) and never
 * shown back. It goes with its server and with its person.
 */
export const mcpUserCredentials = sqliteTable(
  "mcp_user_credentials",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"secret" | "oauth">().notNull(),
    /** What the person's credential is made of (db/queries/mcp-user-credentials.ts), as JSON, encrypted. */
    secrets: text("secrets").notNull(),
    /** Since when calls can use it; null while an OAuth sign-in is under way. */
    connectedAt: integer("connected_at", { mode: "timestamp_ms" }),
    ...timestamps,
  },
  (table) => [uniqueIndex("mcp_user_credentials_server_user").on(table.serverId, table.userId), index("mcp_user_credentials_user").on(table.userId)],
);

/**
 * The changes of each MCP server's health, as the Sources page draws them: a row only when the
 * state changes (not at every poll), with its cause scrubbed of secrets; the last few per server
 * are kept (db/queries/mcp-health.ts). They go with their server.
 */
export const mcpHealthChanges = sqliteTable(
  "mcp_health_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    state: text("state").$type<McpHealthState>().notNull(),
    cause: text("cause"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [index("mcp_health_changes_server").on(table.serverId, table.id)],
);

export type McpHealthChangeRow = typeof mcpHealthChanges.$inferSelect;

// Accounts: the tables better-auth reads and writes through its Drizzle adapter (its field names).
const authTimestamps = {
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
};

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
  image: text("image"),
  ...authTimestamps,
});

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...authTimestamps,
  },
  (table) => [index("sessions_user").on(table.userId)],
);

export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: integer("access_token_expires_at", { mode: "timestamp_ms" }),
    refreshTokenExpiresAt: integer("refresh_token_expires_at", { mode: "timestamp_ms" }),
    scope: text("scope"),
    password: text("password"),
    ...authTimestamps,
  },
  (table) => [index("accounts_user").on(table.userId)],
);

export const verifications = sqliteTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    ...authTimestamps,
  },
  (table) => [index("verifications_identifier").on(table.identifier)],
);

export type TeamRole = "viewer" | "editor" | "admin";
/** `instance`: a team admin's access in its team plus an instance admin's powers; `metrics`: GET /api/metrics only (both made only by the CLI). */
export type TokenScope = "read" | "write" | "admin" | "instance" | "metrics";

/**
 * Instance admins: the people who may do what reaches outside the database (stdio MCP servers,
 * private-network HTTP servers, reloading the deployment's plugin folders, creating teams).
 */
export const instanceAdmins = sqliteTable("instance_admins", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  grantedBy: text("granted_by").notNull(),
  createdAt: timestamps.createdAt,
});

/**
 * Failed sign-ins per key (`email:<address>` or `address:<client address>`): after a few, the key
 * is locked out for a time that doubles with each further failure, on every instance.
 */
export const signInFailures = sqliteTable("sign_in_failures", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  lockedUntil: integer("locked_until", { mode: "timestamp_ms" }),
  lastFailureAt: integer("last_failure_at", { mode: "timestamp_ms" }).notNull(),
});

/** A team owns catalogs; its members have a role each. */
export const teams = sqliteTable("teams", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestamps.createdAt,
});

export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<TeamRole>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [uniqueIndex("team_members_team_user").on(table.teamId, table.userId), index("team_members_user").on(table.userId)],
);

/** An invitation link to join a team with a role; only the hash of its secret is stored. */
export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").$type<TeamRole>().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    /** The account that accepted it, so the team's admins see who did. */
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("invitations_team").on(table.teamId)],
);

/** A team's API token for agents and CI: shown once, stored as a hash, revocable. */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scope: text("scope").$type<TokenScope>().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the token, so people can tell tokens apart. */
    prefix: text("prefix").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamps.createdAt,
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (table) => [uniqueIndex("api_tokens_team_name").on(table.teamId, table.name)],
);

export type UserRow = typeof users.$inferSelect;
export type TeamRow = typeof teams.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type SignInFailureRow = typeof signInFailures.$inferSelect;

/**
 * A job that must run on one instance at a time across all that share the database (the periodic
 * MCP sync, the decision-log retention): the instance that holds the row's lease until it expires
 * runs it; another may take it over only once it has expired.
 */
export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  /** The instance that holds the lease. */
  holder: text("holder").notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

export type LeaseRow = typeof leases.$inferSelect;

/**
 * An import run as a job (app/_services/imports.ts), kept where every instance reads it: its page
 * polls whichever instance the load balancer picks. Used on PostgreSQL; on SQLite, which one
 * instance serves, jobs stay in that process's memory (a progress write there would wait for the
 * import's own write lock and hold up every request).
 */
export const importJobs = sqliteTable(
  "import_jobs",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    status: text("status").$type<"running" | "done" | "failed">().notNull(),
    progress: text("progress", { mode: "json" }).$type<ImportProgress>().notNull(),
    result: text("result", { mode: "json" }).$type<ImportResult>(),
    error: text("error", { mode: "json" }).$type<ImportJobError>(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("import_jobs_finished").on(table.finishedAt)],
);

export type ImportJobRow = typeof importJobs.$inferSelect;

/** What an MCP client said of itself when it opened a gateway session: any instance restores the session from it. */
export interface GatewayClientHello {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string } & Record<string, unknown>;
}

/**
 * An MCP gateway session (its Mcp-Session-Id), kept where every instance reads it, so that any
 * instance answers any request of the session: the turn it serves, who opened it, its conversation
 * (which holds what ToolSearch found) and the client's initialize, from which an instance that has
 * not seen the session yet restores it (app/_services/mcp-gateway.ts).
 */
export const gatewaySessions = sqliteTable(
  "gateway_sessions",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    /** `user:<id>` or `token:<id>`: anyone else naming the session is told it does not exist. */
    owner: text("owner").notNull(),
    turn: text("turn", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    client: text("client", { mode: "json" }).$type<GatewayClientHello>().notNull(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("gateway_sessions_owner").on(table.owner, table.lastUsedAt), index("gateway_sessions_last_used").on(table.lastUsedAt)],
);

export type GatewaySessionRow = typeof gatewaySessions.$inferSelect;

/**
 * A client's answer to a request the gateway sent it (an elicitation) that reached an instance
 * other than the one waiting for it: that one reads it from here.
 */
export const gatewayAnswers = sqliteTable(
  "gateway_answers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sessionId: text("session_id")
      .notNull()
      .references(() => gatewaySessions.id, { onDelete: "cascade" }),
    message: text("message", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("gateway_answers_session").on(table.sessionId, table.id)],
);

// OAuth: Toolshed is the authorization server of its catalog gateways (issue 27). These are the
// tables of better-auth's JWT and OAuth provider plugins, in their field names, read and written
// only through its adapter (db/auth-adapter.ts). Lists (string[]) and JSON fields are JSON text:
// the adapter encodes them itself, in both databases (see authDatabaseAdapter).

/** The keys that sign access tokens (the JWT plugin's `jwks`); the private key is encrypted with the app's secret. */
export const jsonWebKeys = sqliteTable("json_web_keys", {
  id: text("id").primaryKey(),
  publicKey: text("public_key").notNull(),
  privateKey: text("private_key").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
  alg: text("alg"),
  crv: text("crv"),
});

/**
 * An OAuth client: an MCP client known by its Client ID Metadata Document (its `client_id` is the
 * document's URL), or registered dynamically when TOOLSHED_OAUTH_DCR=1.
 */
export const oauthClients = sqliteTable(
  "oauth_clients",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id").notNull().unique(),
    clientSecret: text("client_secret"),
    clientDiscoveryId: text("client_discovery_id"),
    disabled: integer("disabled", { mode: "boolean" }).default(false),
    skipConsent: integer("skip_consent", { mode: "boolean" }),
    enableEndSession: integer("enable_end_session", { mode: "boolean" }),
    subjectType: text("subject_type"),
    scopes: text("scopes"),
    clientCredentialsScopes: text("client_credentials_scopes"),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
    name: text("name"),
    uri: text("uri"),
    icon: text("icon"),
    contacts: text("contacts"),
    tos: text("tos"),
    policy: text("policy"),
    softwareId: text("software_id"),
    softwareVersion: text("software_version"),
    softwareStatement: text("software_statement"),
    redirectUris: text("redirect_uris").notNull(),
    postLogoutRedirectUris: text("post_logout_redirect_uris"),
    backchannelLogoutUri: text("backchannel_logout_uri"),
    backchannelLogoutSessionRequired: integer("backchannel_logout_session_required", { mode: "boolean" }),
    tokenEndpointAuthMethod: text("token_endpoint_auth_method"),
    applicationType: text("application_type"),
    jwks: text("jwks"),
    jwksUri: text("jwks_uri"),
    grantTypes: text("grant_types"),
    responseTypes: text("response_types"),
    requirePKCE: integer("require_pkce", { mode: "boolean" }),
    dpopBoundAccessTokens: integer("dpop_bound_access_tokens", { mode: "boolean" }).default(false),
    referenceId: text("reference_id"),
    metadata: text("metadata"),
  },
  (table) => [index("oauth_clients_user").on(table.userId)],
);

/**
 * A protected resource tokens may be issued for (RFC 8707): one per catalog gateway, its
 * `identifier` the gateway's absolute URL (app/_services/oauth-resources.ts keeps them).
 */
export const oauthResources = sqliteTable("oauth_resources", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull().unique(),
  name: text("name").notNull(),
  accessTokenTtl: integer("access_token_ttl"),
  refreshTokenTtl: integer("refresh_token_ttl"),
  signingAlgorithm: text("signing_algorithm"),
  signingKeyId: text("signing_key_id"),
  allowedScopes: text("allowed_scopes"),
  customClaims: text("custom_claims"),
  dpopBoundAccessTokensRequired: integer("dpop_bound_access_tokens_required", { mode: "boolean" }).default(false),
  disabled: integer("disabled", { mode: "boolean" }).default(false),
  createdAt: integer("created_at", { mode: "timestamp_ms" }),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  policyVersion: integer("policy_version").default(1),
  metadata: text("metadata"),
});

/** Which clients may ask for which resources; unused while enforcePerClientResources is off (see app/_services/auth.ts). */
export const oauthClientResources = sqliteTable(
  "oauth_client_resources",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    resourceId: text("resource_id")
      .notNull()
      .references(() => oauthResources.identifier, { onDelete: "cascade" }),
    metadata: text("metadata"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }),
  },
  (table) => [
    uniqueIndex("oauth_client_resources_client_resource").on(table.clientId, table.resourceId),
    index("oauth_client_resources_resource").on(table.resourceId),
  ],
);

/** A refresh token (stored hashed), issued with the `offline_access` scope. */
export const oauthRefreshTokens = sqliteTable(
  "oauth_refresh_tokens",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "set null" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    referenceId: text("reference_id"),
    authorizationCodeId: text("authorization_code_id"),
    resources: text("resources"),
    requestedUserInfoClaims: text("requested_user_info_claims"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }),
    revoked: integer("revoked", { mode: "timestamp_ms" }),
    rotatedAt: integer("rotated_at", { mode: "timestamp_ms" }),
    rotationReplayResponse: text("rotation_replay_response"),
    rotationReplayExpiresAt: integer("rotation_replay_expires_at", { mode: "timestamp_ms" }),
    authTime: integer("auth_time", { mode: "timestamp_ms" }),
    confirmation: text("confirmation"),
    scopes: text("scopes").notNull(),
  },
  (table) => [
    index("oauth_refresh_tokens_client").on(table.clientId),
    index("oauth_refresh_tokens_session").on(table.sessionId),
    index("oauth_refresh_tokens_user").on(table.userId),
    index("oauth_refresh_tokens_authorization_code").on(table.authorizationCodeId),
  ],
);

/**
 * An opaque access token (stored hashed): one issued without a resource. The gateway accepts only
 * JWT access tokens bound to it (`aud`), which are not stored.
 */
export const oauthAccessTokens = sqliteTable(
  "oauth_access_tokens",
  {
    id: text("id").primaryKey(),
    token: text("token").unique(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "set null" }),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    referenceId: text("reference_id"),
    authorizationCodeId: text("authorization_code_id"),
    resources: text("resources"),
    requestedUserInfoClaims: text("requested_user_info_claims"),
    refreshId: text("refresh_id").references(() => oauthRefreshTokens.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }),
    revoked: integer("revoked", { mode: "timestamp_ms" }),
    confirmation: text("confirmation"),
    scopes: text("scopes").notNull(),
  },
  (table) => [
    index("oauth_access_tokens_client").on(table.clientId),
    index("oauth_access_tokens_session").on(table.sessionId),
    index("oauth_access_tokens_user").on(table.userId),
    index("oauth_access_tokens_authorization_code").on(table.authorizationCodeId),
    index("oauth_access_tokens_refresh").on(table.refreshId),
  ],
);

/** What a person allowed a client: its scopes, for the resources (catalog gateways) named. */
export const oauthConsents = sqliteTable(
  "oauth_consents",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    referenceId: text("reference_id"),
    resources: text("resources"),
    requestedUserInfoClaims: text("requested_user_info_claims"),
    scopes: text("scopes").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (table) => [index("oauth_consents_client").on(table.clientId), index("oauth_consents_user").on(table.userId)],
);

/** A client assertion's `jti`, kept until it expires so that it is used once (private_key_jwt). */
export const oauthClientAssertions = sqliteTable("oauth_client_assertions", {
  id: text("id").primaryKey(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});
