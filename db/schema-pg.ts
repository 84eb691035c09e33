/**
 * The schema of db/schema.ts for PostgreSQL: the same exported tables, table and column names, and
 * the same `$inferSelect` / `$inferInsert` types (tests/db/schema-parity.test.ts), so that the query
 * modules run on either database. What each table means is documented in db/schema.ts.
 *
 * Mapping: JSON columns stay text (jsonText: jsonb would reorder object keys, which tool schemas
 * and their digests depend on, and json has no equality operator); epoch-millisecond timestamps
 * become timestamptz(3); SQLite's implicit rowid, which the decision and evaluation lists order by,
 * is a column that only the migrations know (0001_rowid_columns.sql): declared here it would be
 * returned by every `select()` and differ from SQLite's row types.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, customType, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
import type { EvaluationCase, GatewayClientHello, TeamRole, TokenScope } from "./schema";

/** A JSON value stored as its text, as SQLite's `text({ mode: "json" })`: keys keep their order. */
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value),
});

/** Bytes as a Buffer, as SQLite's `blob({ mode: "buffer" })` (node-postgres reads bytea as a Buffer). */
const bytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** A point in time to the millisecond, as SQLite's `integer({ mode: "timestamp_ms" })`. */
const instant = (name: string) => timestamp(name, { mode: "date", precision: 3, withTimezone: true });

const timestamps = {
  createdAt: instant("created_at").notNull().defaultNow(),
  updatedAt: instant("updated_at").notNull().defaultNow(),
};

export const catalogs = pgTable(
  "catalogs",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull().default("default"),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    revision: integer("revision").notNull().default(0),
    ...timestamps,
  },
  (table) => [index("catalogs_team").on(table.teamId)],
);

export const tools = pgTable(
  "tools",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    source: text("source").$type<ToolSource>().notNull(),
    summary: text("summary").notNull(),
    description: text("description").notNull(),
    inputSchema: jsonText("input_schema").$type<InputSchema>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    tags: jsonText("tags").$type<string[]>().notNull().default(sql`'[]'`),
    registered: boolean("registered").notNull().default(true),
    requires: jsonText("requires").$type<ToolRequirements>().notNull().default(sql`'{}'`),
    sourceRef: text("source_ref"),
    meta: jsonText("meta").$type<ToolMeta>(),
    sourceTags: jsonText("source_tags").$type<string[]>(),
    approvedDefinition: jsonText("approved_definition").$type<PinnedDefinition>(),
    rejectedDigest: text("rejected_digest"),
    /**
     * Set by the database on every insert and update (triggers of migration tool_row_versions), from
     * a counter that grows with each write: what changed since a version an instance already has.
     */
    rowVersion: bigint("row_version", { mode: "number" }).notNull().default(0),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("tools_catalog_name").on(table.catalogId, table.name),
    index("tools_source_ref").on(table.catalogId, table.source, table.sourceRef),
    index("tools_row_version").on(table.catalogId, table.rowVersion),
  ],
);

/** A tool deleted, at the version its deletion took (a trigger writes it): an instance that has the tool drops it. */
export const toolDeletions = pgTable(
  "tool_deletions",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    catalogId: text("catalog_id").notNull(),
    toolId: integer("tool_id").notNull(),
    rowVersion: bigint("row_version", { mode: "number" }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("tool_deletions_catalog").on(table.catalogId, table.rowVersion), index("tool_deletions_created").on(table.createdAt)],
);

export const auditEntries = pgTable(
  "audit_entries",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    subjectKind: text("subject_kind").notNull(),
    subject: text("subject").notNull(),
    action: text("action").notNull(),
    actor: text("actor").notNull(),
    before: jsonText("before").$type<unknown>(),
    after: jsonText("after").$type<unknown>(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("audit_catalog_subject").on(table.catalogId, table.subjectKind, table.subject)],
);

export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: jsonText("value").$type<unknown>().notNull(),
});

export const catalogRules = pgTable("catalog_rules", {
  catalogId: text("catalog_id")
    .primaryKey()
    .references(() => catalogs.id, { onDelete: "cascade" }),
  modelRules: jsonText("model_rules").$type<ModelRule[]>().notNull(),
  providers: jsonText("providers").$type<ProviderProfile[]>().notNull(),
  overrides: jsonText("overrides").$type<DefinitionOverride[]>().notNull(),
  searchServiceConfigured: boolean("search_service_configured").notNull().default(false),
});

export const agents = pgTable(
  "agents",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    mode: text("mode").$type<AgentMode>().notNull(),
    description: text("description").notNull().default(""),
    permissions: jsonText("permissions").$type<PermissionRule[]>().notNull(),
    baseTools: jsonText("base_tools").$type<string[]>().notNull(),
    ...timestamps,
  },
  (table) => [uniqueIndex("agents_catalog_name").on(table.catalogId, table.name)],
);

export const conversations = pgTable("conversations", {
  id: text("id").primaryKey(),
  catalogId: text("catalog_id")
    .notNull()
    .references(() => catalogs.id, { onDelete: "cascade" }),
  title: text("title").notNull().default(""),
  model: text("model").notNull(),
  agent: text("agent").notNull(),
  mode: text("mode"),
  flags: jsonText("flags").$type<string[]>().notNull().default(sql`'[]'`),
  owner: text("owner"),
  ...timestamps,
});

export const conversationTools = pgTable(
  "conversation_tools",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [uniqueIndex("conversation_tools_conversation_name").on(table.conversationId, table.name)],
);

export const conversationMessages = pgTable(
  "conversation_messages",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    role: text("role").$type<"user" | "assistant" | "system" | "tool">().notNull(),
    content: text("content").notNull(),
    details: jsonText("details").$type<unknown>(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("messages_conversation").on(table.conversationId, table.id)],
);

export const decisions = pgTable(
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
    flags: jsonText("flags").$type<string[]>().notNull().default(sql`'[]'`),
    input: jsonText("input").$type<unknown>().notNull(),
    selector: text("selector"),
    fallback: jsonText("fallback").$type<{ from: string; cause: string } | null>(),
    raw: jsonText("raw").$type<unknown>(),
    result: jsonText("result").$type<unknown>().notNull(),
    rejected: jsonText("rejected").$type<{ name: string; reason: string }[]>().notNull(),
    latencyMs: doublePrecision("latency_ms").notNull(),
    tokens: jsonText("tokens").$type<Record<string, number>>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("decisions_catalog_created").on(table.catalogId, table.createdAt), index("decisions_conversation").on(table.conversationId)],
);

export const usageRollups = pgTable(
  "usage_rollups",
  {
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    /** The hour's start. */
    hour: instant("hour").notNull(),
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

export const usageReports = pgTable(
  "usage_reports",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    text: text("text").notNull(),
    caller: text("caller").notNull(),
    strength: doublePrecision("strength").notNull(),
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

export const evaluations = pgTable(
  "evaluations",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    setName: text("set_name").notNull(),
    selector: text("selector").notNull(),
    k: integer("k").notNull(),
    status: text("status").$type<"running" | "done" | "failed">().notNull(),
    cases: jsonText("cases").$type<EvaluationCase[]>().notNull(),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull(),
    metrics: jsonText("metrics").$type<Record<string, number>>(),
    misses: jsonText("misses").$type<unknown[]>(),
    error: text("error"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamps.createdAt,
    finishedAt: instant("finished_at"),
    heartbeatAt: instant("heartbeat_at"),
  },
  (table) => [index("evaluations_catalog_created").on(table.catalogId, table.createdAt)],
);

export const toolEmbeddings = pgTable(
  "tool_embeddings",
  {
    model: text("model").notNull(),
    definitionHash: text("definition_hash").notNull(),
    dimensions: integer("dimensions").notNull(),
    vector: bytes("vector").notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [primaryKey({ columns: [table.model, table.definitionHash] })],
);

export const mcpServers = pgTable(
  "mcp_servers",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    config: jsonText("config").$type<McpServerConfig>().notNull(),
    secrets: text("secrets"),
    status: text("status").$type<"never" | "connected" | "error">().notNull().default("never"),
    lastSyncAt: instant("last_sync_at"),
    lastError: text("last_error"),
    toolCount: integer("tool_count").notNull().default(0),
    serverInfo: jsonText("server_info").$type<{ name: string; version: string; title?: string }>(),
    ...timestamps,
  },
  (table) => [uniqueIndex("mcp_servers_catalog_name").on(table.catalogId, table.name)],
);

/**
 * Each person's own credential for an MCP server whose credentials are per person
 * (lib/sources/mcp/config.ts): the secret they entered, or their OAuth client registration, PKCE
 * verifier and tokens at the server's authorization server, encrypted (lib/secrets) and never
 * shown back. It goes with its server and with its person.
 */
export const mcpUserCredentials = pgTable(
  "mcp_user_credentials",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    serverId: integer("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"secret" | "oauth">().notNull(),
    secrets: text("secrets").notNull(),
    connectedAt: instant("connected_at"),
    ...timestamps,
  },
  (table) => [uniqueIndex("mcp_user_credentials_server_user").on(table.serverId, table.userId), index("mcp_user_credentials_user").on(table.userId)],
);

export const mcpHealthChanges = pgTable(
  "mcp_health_changes",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    serverId: integer("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    state: text("state").$type<McpHealthState>().notNull(),
    cause: text("cause"),
    at: instant("at").notNull(),
  },
  (table) => [index("mcp_health_changes_server").on(table.serverId, table.id)],
);

const authTimestamps = {
  createdAt: instant("created_at").notNull(),
  updatedAt: instant("updated_at").notNull(),
};

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  ...authTimestamps,
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: instant("expires_at").notNull(),
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

export const accounts = pgTable(
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
    accessTokenExpiresAt: instant("access_token_expires_at"),
    refreshTokenExpiresAt: instant("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    ...authTimestamps,
  },
  (table) => [index("accounts_user").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: instant("expires_at").notNull(),
    ...authTimestamps,
  },
  (table) => [index("verifications_identifier").on(table.identifier)],
);

export const teams = pgTable("teams", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestamps.createdAt,
});

export const teamMembers = pgTable(
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

export const invitations = pgTable(
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
    expiresAt: instant("expires_at").notNull(),
    acceptedAt: instant("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("invitations_team").on(table.teamId)],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scope: text("scope").$type<TokenScope>().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    prefix: text("prefix").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamps.createdAt,
    lastUsedAt: instant("last_used_at"),
    revokedAt: instant("revoked_at"),
  },
  (table) => [uniqueIndex("api_tokens_team_name").on(table.teamId, table.name)],
);

export const instanceAdmins = pgTable("instance_admins", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  grantedBy: text("granted_by").notNull(),
  createdAt: timestamps.createdAt,
});

export const signInFailures = pgTable("sign_in_failures", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  lockedUntil: instant("locked_until"),
  lastFailureAt: instant("last_failure_at").notNull(),
});

export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: instant("expires_at").notNull(),
});

export const importJobs = pgTable(
  "import_jobs",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    status: text("status").$type<"running" | "done" | "failed">().notNull(),
    progress: jsonText("progress").$type<ImportProgress>().notNull(),
    result: jsonText("result").$type<ImportResult>(),
    error: jsonText("error").$type<ImportJobError>(),
    createdAt: instant("created_at").notNull(),
    finishedAt: instant("finished_at"),
  },
  (table) => [index("import_jobs_finished").on(table.finishedAt)],
);

export const gatewaySessions = pgTable(
  "gateway_sessions",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    owner: text("owner").notNull(),
    turn: jsonText("turn").$type<Record<string, unknown>>().notNull(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    client: jsonText("client").$type<GatewayClientHello>().notNull(),
    lastUsedAt: instant("last_used_at").notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("gateway_sessions_owner").on(table.owner, table.lastUsedAt), index("gateway_sessions_last_used").on(table.lastUsedAt)],
);

export const gatewayAnswers = pgTable(
  "gateway_answers",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    sessionId: text("session_id")
      .notNull()
      .references(() => gatewaySessions.id, { onDelete: "cascade" }),
    message: jsonText("message").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index("gateway_answers_session").on(table.sessionId, table.id)],
);

// OAuth (issue 27): better-auth's JWT and OAuth provider tables; lists and JSON fields are JSON text.
export const jsonWebKeys = pgTable("json_web_keys", {
  id: text("id").primaryKey(),
  publicKey: text("public_key").notNull(),
  privateKey: text("private_key").notNull(),
  createdAt: instant("created_at").notNull(),
  expiresAt: instant("expires_at"),
  alg: text("alg"),
  crv: text("crv"),
});

export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id").notNull().unique(),
    clientSecret: text("client_secret"),
    clientDiscoveryId: text("client_discovery_id"),
    disabled: boolean("disabled").default(false),
    skipConsent: boolean("skip_consent"),
    enableEndSession: boolean("enable_end_session"),
    subjectType: text("subject_type"),
    scopes: text("scopes"),
    clientCredentialsScopes: text("client_credentials_scopes"),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: instant("created_at"),
    updatedAt: instant("updated_at"),
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
    backchannelLogoutSessionRequired: boolean("backchannel_logout_session_required"),
    tokenEndpointAuthMethod: text("token_endpoint_auth_method"),
    applicationType: text("application_type"),
    jwks: text("jwks"),
    jwksUri: text("jwks_uri"),
    grantTypes: text("grant_types"),
    responseTypes: text("response_types"),
    requirePKCE: boolean("require_pkce"),
    dpopBoundAccessTokens: boolean("dpop_bound_access_tokens").default(false),
    referenceId: text("reference_id"),
    metadata: text("metadata"),
  },
  (table) => [index("oauth_clients_user").on(table.userId)],
);

export const oauthResources = pgTable("oauth_resources", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull().unique(),
  name: text("name").notNull(),
  accessTokenTtl: integer("access_token_ttl"),
  refreshTokenTtl: integer("refresh_token_ttl"),
  signingAlgorithm: text("signing_algorithm"),
  signingKeyId: text("signing_key_id"),
  allowedScopes: text("allowed_scopes"),
  customClaims: text("custom_claims"),
  dpopBoundAccessTokensRequired: boolean("dpop_bound_access_tokens_required").default(false),
  disabled: boolean("disabled").default(false),
  createdAt: instant("created_at"),
  updatedAt: instant("updated_at"),
  policyVersion: integer("policy_version").default(1),
  metadata: text("metadata"),
});

export const oauthClientResources = pgTable(
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
    createdAt: instant("created_at"),
  },
  (table) => [
    uniqueIndex("oauth_client_resources_client_resource").on(table.clientId, table.resourceId),
    index("oauth_client_resources_resource").on(table.resourceId),
  ],
);

export const oauthRefreshTokens = pgTable(
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
    expiresAt: instant("expires_at"),
    createdAt: instant("created_at"),
    revoked: instant("revoked"),
    rotatedAt: instant("rotated_at"),
    rotationReplayResponse: text("rotation_replay_response"),
    rotationReplayExpiresAt: instant("rotation_replay_expires_at"),
    authTime: instant("auth_time"),
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

export const oauthAccessTokens = pgTable(
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
    expiresAt: instant("expires_at"),
    createdAt: instant("created_at"),
    revoked: instant("revoked"),
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

export const oauthConsents = pgTable(
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
    createdAt: instant("created_at"),
    updatedAt: instant("updated_at"),
  },
  (table) => [index("oauth_consents_client").on(table.clientId), index("oauth_consents_user").on(table.userId)],
);

export const oauthClientAssertions = pgTable("oauth_client_assertions", {
  id: text("id").primaryKey(),
  expiresAt: instant("expires_at").notNull(),
});
