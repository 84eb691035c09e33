import { z } from "zod";
import { POISONING_KINDS } from "./tools/poisoning";
import { TEAM_ROLES, TOKEN_SCOPES } from "./auth/policy";
import { DECISION_KINDS, DECISION_PATHS } from "./selection/types";
import { MCP_HEALTH_STATES } from "./sources/mcp/health";
import { TOOL_SOURCES } from "./tools/types";

/**
 * Response bodies of the HTTP API, for its OpenAPI document (lib/openapi.ts). Routes answer with
 * what db/ and lib/ return; these schemas describe that for callers, and the API tests check
 * recorded answers against them. `z.object` lists every field an answer has; `z.looseObject`
 * lists the fields callers rely on and admits the rest (large, internal or versioned records).
 */

const timestamp = z.string().describe("ISO 8601 date-time.");
const nameList = z.array(z.string());

const errorResponse = z.object({
  error: z.object({
    code: z.enum([
      "bad_request",
      "unauthorized",
      "forbidden",
      "not_found",
      "method_not_allowed",
      "conflict",
      "too_large",
      "rate_limited",
      "upstream_failed",
      "internal",
    ]),
    message: z.string(),
    field: z.string().optional(),
    problems: z.array(z.looseObject({ field: z.string(), message: z.string() })).optional(),
  }),
});

const catalog = z.object({ id: z.string(), teamId: z.string(), name: z.string(), description: z.string(), revision: z.number().int() });

const tool = z.looseObject({
  name: z.string(),
  source: z.enum(TOOL_SOURCES),
  summary: z.string(),
  description: z.string(),
  inputSchema: z.looseObject({}),
  enabled: z.boolean(),
  tags: nameList,
  registered: z.boolean(),
  requires: z.looseObject({}),
  sourceRef: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const definition = z.object({ name: z.string(), description: z.string(), inputSchema: z.looseObject({}) });
const rejection = z.object({ name: z.string(), reason: z.string() });
const fallback = z.object({ from: z.string(), cause: z.string() }).nullable();

const agent = z.looseObject({
  name: z.string(),
  mode: z.string(),
  description: z.string(),
  permissions: z.array(z.looseObject({ pattern: z.string(), action: z.string() })),
  baseTools: nameList,
});

const conversation = z.looseObject({
  id: z.string(),
  catalogId: z.string(),
  title: z.string(),
  model: z.string(),
  agent: z.string(),
  history: nameList,
  /** Who started it (`user:<id>` or `token:<id>`); null for conversations older than owners. */
  owner: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const decision = z.looseObject({
  id: z.string(),
  catalogId: z.string(),
  conversationId: z.string().nullable(),
  revision: z.number().int(),
  kind: z.enum(DECISION_KINDS),
  path: z.enum(DECISION_PATHS),
  model: z.string(),
  agent: z.string(),
  selector: z.string().nullable(),
  fallback,
  result: z.unknown(),
  rejected: z.array(rejection),
  latencyMs: z.number(),
  createdAt: timestamp,
});

const evaluation = z.looseObject({
  id: z.string(),
  catalogId: z.string(),
  revision: z.number().int(),
  setName: z.string(),
  selector: z.string(),
  k: z.number().int(),
  status: z.enum(["running", "done", "failed"]),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  metrics: z.record(z.string(), z.number()).nullable(),
  error: z.string().nullable(),
});

const flaggedSelection = z
  .object({ tool: z.string(), severity: z.enum(["high", "medium"]), kinds: z.array(z.enum(POISONING_KINDS)) })
  .describe("A tool whose text has open medium or high tool-poisoning findings: the most severe, and the kinds found.");

const importResult = z.object({
  created: nameList,
  updated: nameList,
  unchanged: nameList,
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  flagged: z.array(flaggedSelection).optional().describe("The imported tools whose text has medium or high tool-poisoning findings; absent when none has."),
  revision: z.number().int(),
});

/** A tool of the file: its name as written there (null when it has none) and its place (0-based) in its tools list. */
const previewedTool = z.object({ name: z.string().nullable(), index: z.number().int() });

/** The format an import read its file as (lib/catalogs/import-formats.ts). */
const importFormat = z.object({
  id: z.enum(["toolshed", "labelled-set", "openai-chat", "openai-responses", "anthropic", "mcp-tools", "mcp-client-config"]),
  label: z.string(),
});

const importPreview = z.object({
  format: importFormat.describe("The format the file was detected as."),
  notes: z.array(z.string()).describe("What the import leaves out of the file's tools on purpose (fields a tool here has no place for)."),
  revision: z.number().int().describe("The catalog revision the preview was worked out at."),
  created: z.array(previewedTool),
  updated: z.array(previewedTool.extend({ fields: z.array(z.enum(["summary", "description", "inputSchema", "tags", "enabled"])) })),
  unchanged: z.array(previewedTool),
  skipped: z.array(previewedTool.extend({ reason: z.string() })).describe("Left alone by an import that runs, each with why."),
  invalid: z
    .array(previewedTool.extend({ problems: errorResponse.shape.error.shape.problems.unwrap() }))
    .describe("Tools with problems: while there is any, the import is refused whole."),
});

const importJob = z.looseObject({
  id: z.string(),
  catalogId: z.string(),
  status: z.enum(["running", "done", "failed"]),
  progress: z.looseObject({ done: z.number().int(), total: z.number().int() }),
  result: importResult.optional(),
  error: errorResponse.shape.error.optional(),
});

const mcpHealthChange = z.object({
  state: z.enum(MCP_HEALTH_STATES),
  cause: z.string().nullable().describe("Why, scrubbed of secrets; for callers below admin, only what a starting connection waits for."),
  at: timestamp,
});

const mcpServer = z.looseObject({
  name: z.string(),
  config: z.looseObject({ name: z.string(), transport: z.enum(["stdio", "http"]) }).describe("The configuration with its secrets redacted."),
  status: z.string(),
  lastSyncAt: timestamp.nullable(),
  toolCount: z.number().int(),
  registeredCount: z.number().int(),
  heldBack: nameList.describe("Its tools held back until an editor approves or rejects a definition its server changed or added."),
  health: z.array(mcpHealthChange).describe("Its last changes of health, newest first."),
});

const sourceSync = z.looseObject({ added: nameList, updated: nameList, unregistered: nameList });

/** What importing an MCP client configuration would add: each server, without its secrets' values. */
const serverImportPreview = z.object({
  format: importFormat,
  servers: z.array(
    z.object({
      key: z.string().describe("The server's key in the file."),
      name: z.string().describe("Its name in the catalog."),
      transport: z.enum(["stdio", "http"]).optional(),
      target: z.string().optional().describe("The command line, or the URL without its query."),
      secrets: z.array(z.string()).describe("The names of its env variables or headers (stored encrypted; their values are never answered)."),
      problems: errorResponse.shape.error.shape.problems.unwrap(),
      notes: z.array(z.string()),
    }),
  ),
});

const team = z.object({ id: z.string(), name: z.string() });
const invitation = z.looseObject({
  id: z.string(),
  email: z.string(),
  role: z.enum(TEAM_ROLES),
  expiresAt: timestamp,
  acceptedAt: timestamp.nullable(),
  acceptedBy: z
    .object({ userId: z.string(), name: z.string(), email: z.string(), emailVerified: z.boolean() })
    .nullable()
    .describe("The account that accepted it, and whether its address is proven (by the operator or a sign-in provider)."),
});
const apiToken = z.object({
  id: z.string(),
  teamId: z.string(),
  name: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  prefix: z.string(),
  createdBy: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
});

const embeddings = z.object({
  model: z.string().nullable(),
  revision: z.number().int(),
  embedded: z.number().int(),
  total: z.number().int(),
  running: z.boolean(),
  error: z.string().nullable(),
});

/** Every response body by name; lib/openapi.ts names them in its operations. */
const pinnedDefinition = z.object({ summary: z.string(), description: z.string(), inputSchema: z.looseObject({}), meta: z.looseObject({}).nullable() });

const definitionReview = z.object({
  name: z.string(),
  source: z.enum(TOOL_SOURCES),
  sourceRef: z.string().nullable(),
  state: z
    .enum(["new", "changed"])
    .describe(
      "new: added by its server after its first listing, or at its first listing with text flagged as poisoned (high findings, or medium ones unless the server's mediumFindings is auto); changed: changed since an editor approved it.",
    ),
  approved: pinnedDefinition.nullable(),
  current: pinnedDefinition,
  digest: z.string().describe("Name it to approve or reject this very definition."),
  rejected: z.boolean(),
});

/** What an apply does (lib/catalogs/apply-plan.ts), each thing named `<section>/<name>`. */
const applyPlan = z.object({
  created: z.array(z.string()),
  changed: z.array(z.object({ name: z.string(), fields: z.array(z.string()) })),
  unchanged: z.number().int(),
  deleted: z.array(z.string()),
  pending: z.array(z.object({ name: z.string(), reason: z.string() })),
});

const count = z.number().int();
const latency = z.number().nullable().describe("Milliseconds, read from the rollups' log-scale histogram (within about 9 %); null without answered calls.");
const usageFigures = z.object({
  name: z.string(),
  calls: count,
  errors: count.describe("Refused, timed-out and failed calls."),
  errorsByKind: z.object({ refused: count, timeout: count, upstream: count }),
  cancelled: count.describe("Calls the client gave up."),
  p50Ms: latency,
  p95Ms: latency,
  p99Ms: latency,
  offered: count.describe("Times preselection offered it."),
  calledWhenOffered: count.describe("Calls in a conversation that already held the tool."),
  foundBySearch: count.describe("Times ToolSearch found it for a conversation that did not hold it (a preselection miss)."),
});

export const apiResponses = {
  Error: errorResponse,
  Health: z.object({ ok: z.literal(true) }),
  CatalogList: z.object({ catalogs: z.array(catalog) }),
  CatalogAnswer: z.object({ catalog }),
  ToolList: z.object({ tools: z.array(tool) }),
  ToolPage: z.looseObject({
    tools: z.array(tool),
    total: z.number().int(),
    nextCursor: z.string().optional(),
    facets: z.looseObject({}),
    revision: z.number().int(),
    sourceChanges: z.record(z.string(), timestamp).optional(),
  }),
  ToolAnswer: z.object({ tool }),
  ToolBulkResult: z.object({
    action: z.string(),
    message: z.string(),
    revision: z.number().int().nullable(),
    changed: z.array(z.string()),
    unchanged: z.number().int(),
    skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
    target: z.string().optional(),
    targetRevision: z.number().int().optional(),
    undoable: z.boolean(),
  }),
  ToolDeletion: z.object({ deleted: z.string(), revision: z.number().int(), references: z.looseObject({}) }),
  AuditHistory: z.object({
    entries: z.array(
      z.looseObject({
        id: z.number().int(),
        action: z.string(),
        subjectKind: z.string(),
        subject: z.string(),
        revision: z.number().int(),
        actor: z.string().describe("As recorded: a person's email, `token:<name>`, or the process (`sync`, `seed`)."),
        actorName: z.string().describe("Who made the change, in words: `Ada (ada@example.com)`, `token ci`, `sync`."),
        createdAt: timestamp,
      }),
    ),
  }),
  RestoreAnswer: z.looseObject({
    changed: z.boolean().describe("False when that version already was the current one: nothing was written."),
    revision: z.number().int(),
    subjectKind: z.enum(["tool", "agent", "rules"]),
  }),
  CatalogExport: z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) }),
  ApplyAnswer: z.object({ plan: applyPlan }),
  ImportResult: importResult,
  ImportPreviewAnswer: z.object({ preview: z.union([importPreview, serverImportPreview]) }),
  ServerImportResult: z.object({ format: importFormat, servers: z.array(z.object({ name: z.string(), sync: sourceSync })) }),
  ImportStarted: z.object({ job: z.object({ id: z.string(), url: z.string() }) }),
  ImportJobAnswer: z.object({ job: importJob }),
  Rules: z.object({ rules: z.looseObject({}) }),
  AgentList: z.object({ agents: z.array(agent) }),
  AgentAnswer: z.object({ agent }),
  ConversationList: z.object({ conversations: z.array(conversation) }),
  DefinitionReviewList: z.object({ reviews: z.array(definitionReview.extend({ flagged: flaggedSelection.nullable() })) }),
  DefinitionReviewAnswer: z.object({ review: definitionReview.nullable() }),
  ConversationAnswer: z.object({
    conversation,
    messages: z.array(z.looseObject({ id: z.number().int(), role: z.enum(["user", "assistant", "system", "tool"]), content: z.string() })),
  }),
  DecisionPage: z.object({ decisions: z.array(decision), nextCursor: z.string().nullable() }),
  DecisionAnswer: z.object({ decision: decision.extend({ input: z.unknown() }) }),
  Replay: z.looseObject({ before: z.looseObject({}), after: z.looseObject({}), diff: z.looseObject({}), catalogChanges: z.array(z.looseObject({})) }),
  Embeddings: z.object({ embeddings }),
  EvaluationAnswer: z.object({ evaluation }),
  EvaluationPage: z.object({ evaluations: z.array(evaluation), nextCursor: z.string().nullable() }),
  Quality: z.looseObject({
    revision: z.number().int(),
    counts: z.record(z.string(), z.number().int()),
    findings: z.array(z.looseObject({ kind: z.string(), tools: nameList, message: z.string() })),
    usage: z.looseObject({}),
  }),
  ToolFindings: z.object({
    findings: z.array(
      z.object({
        kind: z.enum(POISONING_KINDS),
        severity: z.enum(["high", "medium", "low"]),
        field: z.string().describe('"description", "summary", or a parameter\'s description as parameters.<path>.'),
        start: z.number().int().describe("First flagged character of the field."),
        end: z.number().int().describe("One past the last flagged character."),
        message: z.string(),
        excerpt: z
          .object({ before: z.string(), flagged: z.string(), after: z.string() })
          .describe("The flagged text in context, invisible characters shown as ⟨U+…⟩."),
      }),
    ),
  }),
  UsageStats: z.object({
    window: z.enum(["1h", "24h", "7d", "30d"]),
    since: timestamp.describe("The start of the first hourly rollup counted."),
    tools: z.array(usageFigures),
    servers: z.array(usageFigures).describe("Per MCP server: its tools' figures together."),
    agents: z.array(usageFigures),
    models: z.array(usageFigures),
    neverCalled: nameList.describe("Enabled MCP tools nobody called in the last 30 days (only MCP tools' calls pass through Toolshed): the first 500."),
    neverCalledTotal: count,
    oftenFound: z.array(z.object({ name: z.string(), foundBySearch: z.number().int() })).describe("Tools ToolSearch kept having to find in the window."),
  }),
  UsageReportAnswer: z.object({
    accepted: count.describe("Events with at least one tool learned from."),
    ignored: z
      .array(z.object({ index: z.number().int(), tool: z.string().optional(), reason: z.string() }))
      .describe(
        "Tools not learned from, by event: not in the catalog, not usable, or not visible to the model and agent named; without `tool`, a whole event whose query has no word to learn from.",
      ),
  }),
  LearningStatus: z.object({
    enabled: z.boolean(),
    reports: count.describe("Reports learned from (each a tool and the words that led to it)."),
    tools: count,
    weight: z.number().describe("What a full, trusted learned match weighs against the request's best description match."),
    calibrated: z.boolean().describe("Whether the weight was chosen on the catalog's own reports (with 20 or more)."),
  }),
  LearningReset: z.looseObject({ deleted: count }),
  LearnedForTool: z.object({
    enabled: z.boolean(),
    reports: z.number().describe("The tool's reports, older ones counting less (30-day half-life)."),
    words: z.array(z.object({ word: z.string(), weight: z.number() })).describe("The most telling words of the requests that led to the tool."),
  }),
  ToolListAnswer: z.looseObject({
    catalog: z.string(),
    revision: z.number().int(),
    sourcesVersion: z
      .string()
      .describe(
        "A digest of the plugin, skill and agent files the answering instance loaded: instances with the same files answer the same list for the same revision and this version.",
      ),
    model: z.string(),
    agent: z.string(),
    provider: z.string().nullable(),
    mode: z.string(),
    format: z.enum(["ai-sdk", "openai", "anthropic"]),
    tools: z.array(z.looseObject({})).describe("The visible tools in the requested provider format."),
    annotations: z.array(z.object({ name: z.string(), source: z.enum(TOOL_SOURCES), needsApproval: z.boolean() })),
    trace: z.array(z.looseObject({ stage: z.string(), removed: z.array(z.looseObject({})), changed: z.array(z.looseObject({})) })),
    tokens: z.looseObject({ total: z.number().int() }),
  }),
  Preselection: z.object({
    conversationId: z.string(),
    selected: z.array(z.object({ name: z.string(), score: z.number() })),
    toolSet: z.array(z.object({ name: z.string(), origin: z.enum(["base", "preselected", "history", "entry"]) })),
    rejected: z.array(rejection),
    dropped: z.array(rejection),
    selector: z.string(),
    fallback,
    decisionId: z.string(),
    revision: z.number().int(),
    tokens: z.object({ toolSet: z.number().int(), visible: z.number().int(), candidates: z.number().int() }),
    latencyMs: z.number(),
  }),
  ToolSearch: z.object({
    conversationId: z.string(),
    path: z.enum(["exact", "semantic"]),
    tools: z.array(definition),
    rejected: z.array(rejection),
    selector: z.string().nullable(),
    fallback,
    decisionId: z.string(),
    latencyMs: z.number(),
  }),
  McpServerList: z.object({ servers: z.array(mcpServer) }),
  McpServerAnswer: z.object({ server: mcpServer }),
  McpServerSync: z.object({ server: mcpServer, sync: sourceSync }),
  McpHealthChanges: z.object({ changes: z.array(mcpHealthChange) }),
  SourcesReload: z.object({
    loadedAt: timestamp,
    errors: z.object({ plugins: z.array(z.looseObject({})), skills: z.array(z.looseObject({})), agents: z.array(z.looseObject({})) }),
  }),
  TeamList: z.object({ teams: z.array(team.extend({ role: z.enum(TEAM_ROLES).optional(), scope: z.enum(TOKEN_SCOPES).optional() })) }),
  TeamAnswer: z.object({ team: team.extend({ role: z.enum(TEAM_ROLES) }) }),
  MemberList: z.object({ members: z.array(z.object({ userId: z.string(), email: z.string(), name: z.string(), role: z.enum(TEAM_ROLES), since: timestamp })) }),
  MemberAnswer: z.object({ member: z.looseObject({ userId: z.string(), role: z.enum(TEAM_ROLES) }) }),
  InvitationList: z.object({ invitations: z.array(invitation) }),
  InvitationCreated: z.object({ invitation, link: z.string().describe("Shown once: the invitation's secret is in it.") }),
  TokenList: z.object({ tokens: z.array(apiToken) }),
  TokenCreated: z.object({ token: apiToken, secret: z.string().describe("Shown once: only its hash is kept.") }),
} satisfies Record<string, z.ZodType>;

export type ApiResponseName = keyof typeof apiResponses;
