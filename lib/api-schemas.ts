import { z } from "zod";
import { CATALOG_CODE_FORMATS } from "./catalogs/code-format";
import { evaluationCasesSchema, MAX_SET_NAME_CHARS } from "./evaluation/cases";
import { PROVIDER_FORMATS } from "./formats/provider-format";
import { AgentSchema } from "./rules/agents";
import { ModelRuleSchema } from "./rules/model-rules";
import { DefinitionOverrideSchema } from "./rules/overrides";
import { ProviderProfileSchema } from "./rules/providers";
import { safeName, safeText } from "./safe-text";
import { DECISION_KINDS, DECISION_OUTCOMES, DECISION_PATHS } from "./selection/types";
import { TOOL_BULK_ACTIONS, TOOL_SORT_COLUMNS } from "./tools/bulk";
import { TOOL_SOURCES } from "./tools/types";
import { USAGE_WINDOWS, type UsageWindow } from "./usage/usage-stats";

/** Request bodies of the HTTP API and the server actions, validated once at the edge. */
export const createCatalogBody = z.strictObject({
  name: safeName(),
  description: safeText().optional(),
  id: safeName().optional(),
  /** The owning team; by default the caller's only team, or "default". */
  team: safeName().max(48).optional(),
});

export const updateCatalogBody = z.strictObject({
  name: safeName().optional(),
  description: safeText().optional(),
});

/** Tool bodies only fix which keys may exist; lib/tools/validate checks the values, field by field. */
export const toolBody = z.strictObject({
  name: z.unknown().optional(),
  summary: z.unknown().optional(),
  description: z.unknown().optional(),
  inputSchema: z.unknown().optional(),
  tags: z.unknown().optional(),
  enabled: z.unknown().optional(),
});

export const toolListBody = z.strictObject({
  model: safeName().trim().min(1, "Name a model id, e.g. gpt-5.").max(200),
  agent: safeName().trim().min(1, "Name an agent, e.g. build.").max(64),
  provider: safeName().trim().min(1).max(64).optional(),
  mode: safeName().trim().min(1).max(64).optional(),
  flags: z.array(safeName().trim().min(1).max(100)).max(50).optional(),
  format: z.enum(PROVIDER_FORMATS).optional(),
});

export const rulesBody = z.strictObject({
  modelRules: z.array(ModelRuleSchema).max(200).optional(),
  providers: z.array(ProviderProfileSchema).max(100).optional(),
  overrides: z.array(DefinitionOverrideSchema).max(1000).optional(),
  searchServiceConfigured: z.boolean().optional(),
});

export const agentBody = AgentSchema.strict();

const turnFields = {
  model: toolListBody.shape.model,
  agent: toolListBody.shape.agent,
  provider: toolListBody.shape.provider,
  mode: toolListBody.shape.mode,
  flags: toolListBody.shape.flags,
  conversationId: z.string().uuid("conversationId is not a conversation id.").optional(),
  selector: safeName().min(1).max(200).optional(),
};

const messageSchema = z.strictObject({
  role: z.enum(["user", "assistant", "system", "tool"]),
  content: z.string().max(100_000),
});

export const preselectBody = z.strictObject({
  ...turnFields,
  messages: z.array(messageSchema).min(1, "Give at least one message.").max(200),
  k: z.number().int().min(1).max(50).optional(),
});

export const toolSearchBody = z.strictObject({
  ...turnFields,
  query: z.string().trim().min(1, "Say what the tool should do, or name it.").max(2_000),
  maxResults: z.number().int().min(1).max(20).optional(),
  messages: z.array(messageSchema).max(200).optional(),
});

/** The query of an MCP gateway session (…/mcp?model=…&agent=…): whose turn it serves, fixed for the session. */
export const mcpGatewayQuery = z.strictObject({
  model: turnFields.model,
  agent: turnFields.agent,
  provider: turnFields.provider,
  mode: turnFields.mode,
  flags: turnFields.flags,
  selector: turnFields.selector,
});

/** An editor's verdict on a held-back tool's definition, naming the digest of the one they saw. */
export const definitionReviewBody = z.strictObject({
  tool: safeName().trim().min(1, "Name the tool.").max(200),
  decision: z.enum(["approve", "reject"], { error: 'decision is "approve" or "reject".' }),
  digest: z.string().trim().min(1, "Give the digest of the definition you reviewed.").max(100),
});

/** The body of a replay request, from the HTTP API or the decision page (none: the decision's own selector). */
export const replayBody = z.strictObject({
  selector: z.string().trim().min(1, "Name a selector, or leave it out.").max(200).optional(),
});

/** POST …/import?dryRun=1: what the import would do, tool by tool, written nowhere. */
export const importQuery = z.object({
  dryRun: z.enum(["1", "true"], { error: 'dryRun is "1" (or "true"), or left out.' }).optional(),
});

/** POST …/apply?dryRun=1&prune=1: the plan only; deleting what the file's sections do not name. */
export const applyQuery = z.object({
  dryRun: importQuery.shape.dryRun,
  prune: z.enum(["1", "true"], { error: 'prune is "1" (or "true"), or left out.' }).optional(),
});

/** GET …/export?format=yaml|json: the catalog as code (version 2); without it, the tools-only export (version 1) the import reads. */
export const exportQuery = z.object({
  format: z.enum(CATALOG_CODE_FORMATS, { error: 'format is "yaml" or "json".' }).optional(),
});

/** The catalog page's apply (a server action): the file's text, as chosen, and the query's switches. */
export const catalogFileAction = z.strictObject({
  text: z.string().max(64 * 1024 * 1024, "A catalog file is at most 64 MiB."),
  dryRun: z.boolean(),
  prune: z.boolean(),
});

/** POST …/clone: the new catalog's name, and its id and team (by default the catalog's own team). */
export const cloneBody = z.strictObject({
  name: createCatalogBody.shape.name,
  id: createCatalogBody.shape.id,
  team: createCatalogBody.shape.team,
});

export const decisionQuery = z.strictObject({
  conversationId: z.string().optional(),
  kind: z.enum(DECISION_KINDS).optional(),
  path: z.enum(DECISION_PATHS).optional(),
  rejected: z.enum(["1", "true"]).optional(),
  fallback: z.enum(["1", "true"]).optional(),
  /** Decisions about this tool: its gateway calls, and the preselections and ToolSearch calls that chose it. */
  tool: z.string().min(1).max(200).optional(),
  /** Decisions whose question contains this text, whatever its case: a ToolSearch query, a preselection's last user message, a call's tool. */
  q: z.string().min(1).max(200, "Search with at most 200 characters.").optional(),
  /** Decisions made by this selector (its id, e.g. `local`), or by none (`none`: exact names, gateway calls). */
  selector: z.string().min(1).max(200).optional(),
  /** chosen: tools selected or found, or a call answered; none: a selection that came to nothing; refused, error: gateway calls. */
  outcome: z.enum(DECISION_OUTCOMES).optional(),
  /** Page size: 50 by default, at most 500. */
  limit: z.coerce.number().int().min(1).max(500).optional(),
  /** The previous page's `nextCursor` (opaque). */
  cursor: z.string().min(1).max(200).optional(),
});

/**
 * The query of a page of tools (GET …/tools?q=&source=&state=&tag=&changedSince=&changedIn=&cursor=|offset=&limit=).
 * Other parameters are ignored, as they always were on that route; without any of these it lists every tool.
 */
export const toolPageQuery = z.object({
  q: z.string().max(200, "Search with at most 200 characters.").optional(),
  source: z.enum(TOOL_SOURCES).optional(),
  state: z.enum(["all", "enabled", "disabled"]).optional(),
  tag: z.string().min(1).max(64).optional(),
  /** Only tools their source redefined since then: a date (from its start, UTC) or a date-time with its offset. */
  changedSince: z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "changedSince is an ISO 8601 date (2026-05-01) or date-time (2026-05-01T12:00:00Z)." })
    .transform((text) => new Date(text))
    .optional(),
  /** Only tools changed at this catalog revision: an import's `revision` names the tools it created or updated. */
  changedIn: z.coerce.number({ error: "changedIn is a catalog revision (a whole number)." }).int().min(0).optional(),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, "cursor is the nextCursor of a previous page.")
    .optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  /** A column to sort by (name, source, enabled, summary, tags), "-" first for descending; by default registration order. */
  sort: z
    .enum([...TOOL_SORT_COLUMNS, ...TOOL_SORT_COLUMNS.map((column) => `-${column}` as const)], {
      error: `sort is one of ${TOOL_SORT_COLUMNS.join(", ")}, each with "-" before it for descending.`,
    })
    .optional(),
});

const bulkTag = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,31}$/, "A tag is 1-32 lowercase letters, digits, '.', '_' or '-'.");

/** Which tools a bulk change is about, and what it does to them; `undo` names the revision a bulk change made instead. */
export const toolBulkBody = z
  .strictObject({
    action: z.enum(TOOL_BULK_ACTIONS, { error: `action is one of ${TOOL_BULK_ACTIONS.join(", ")}.` }),
    /** The tools by name. */
    names: z.array(safeName().min(1).max(200)).min(1, "Name at least one tool.").max(50_000).optional(),
    /** Or every tool matching the tools table's filters (as GET …/tools takes them), however many pages that is. */
    matching: toolPageQuery.pick({ q: true, source: true, state: true, tag: true, changedSince: true, changedIn: true }).strict().optional(),
    addTags: z.array(bulkTag).max(20).optional(),
    removeTags: z.array(bulkTag).max(20).optional(),
    /** move and copy: the catalog the tools go to (the caller needs the editor role there too). */
    target: safeName().min(1).max(64).optional(),
    /** undo: the revision of the bulk change to take back. */
    revision: z.number().int().min(1).optional(),
  })
  .superRefine((body, context) => {
    const problem = bulkBodyProblem(body);
    if (problem) context.addIssue({ code: "custom", message: problem.message, path: [problem.field] });
  });

function bulkBodyProblem(body: {
  action: string;
  names?: unknown;
  matching?: unknown;
  addTags?: string[];
  removeTags?: string[];
  target?: string;
  revision?: number;
}): { field: string; message: string } | undefined {
  if (body.action === "undo") {
    if (body.revision === undefined) return { field: "revision", message: "undo needs the revision of the bulk change to take back." };
    if (body.names || body.matching) return { field: "names", message: "undo takes back a whole bulk change: name its revision, not tools." };
    return undefined;
  }
  if (!body.names === !body.matching) return { field: "names", message: "Name the tools (names) or the filters they match (matching): one of the two." };
  if (body.action === "tag" && !body.addTags?.length && !body.removeTags?.length)
    return { field: "addTags", message: "tag needs tags to add (addTags) or to remove (removeTags)." };
  if ((body.action === "move" || body.action === "copy") && !body.target) return { field: "target", message: `${body.action} needs the target catalog.` };
  return undefined;
}

export const playgroundBody = z.strictObject({
  ...turnFields,
  message: z.string().trim().min(1).max(20_000).optional(),
  /** The client's key of the message: sent again under the same key (a Retry), it is stored once. */
  messageKey: safeName().min(1).max(100).optional(),
  toolResults: z
    .array(z.strictObject({ toolCallId: safeName().min(1).max(200), toolName: safeName().min(1).max(64), output: z.string().max(100_000) }))
    .max(20)
    .optional(),
  k: z.number().int().min(1).max(50).optional(),
});

export { McpServerConfigSchema as mcpServerBody } from "./sources/mcp/config";

export const evaluationBody = z.strictObject({
  cases: evaluationCasesSchema,
  /** How many tools count as chosen: an expected tool outside the first k is a miss. */
  k: z.number().int().min(1).max(50).optional(),
  selector: turnFields.selector,
  /** The set's name: runs of one set are compared over revisions. */
  name: safeName().trim().min(1).max(MAX_SET_NAME_CHARS).optional(),
  /** With what the catalog learned from use, as preselection ranks now (the local selector only); recorded as selector "local+learned". */
  learning: z.boolean().optional(),
});

export const evaluationQuery = z.strictObject({
  /** Only the runs of this set. */
  name: z.string().min(1).max(MAX_SET_NAME_CHARS).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, "cursor is the nextCursor of a previous page.")
    .transform(Number)
    .optional(),
});

export const qualityQuery = z.strictObject({
  /** How far back "never chosen" looks. */
  days: z.coerce.number().int().min(1).max(365).optional(),
});

export const usageStatsQuery = z.strictObject({
  /** How far back the figures go: the hourly rollups that overlap it (24h by default). */
  window: z.enum(Object.keys(USAGE_WINDOWS) as [UsageWindow, ...UsageWindow[]]).optional(),
});

export const auditQuery = z.strictObject({
  /** Whose history: the catalog's rules or its agents (a tool's is GET …/tools/{name}/audit). */
  of: z.enum(["rules", "agents"]),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

/** An audit entry's id as a path segment: /audit/{id}/restore. */
export const auditEntryId = z.coerce.number().int().positive("An audit entry's id is a number, e.g. /audit/12/restore.");

export const restoreBody = z.strictObject({
  /** The version the entry replaced, or the one it made. */
  version: z.enum(["before", "after"]),
  /** For a tool's entry: the tool's name now, when it was renamed since; by default the entry's subject. */
  tool: safeName().min(1).max(200).optional(),
});

/** At most this many events per usage report (POST …/usage), and tool uses in all of them. */
const MAX_USAGE_EVENTS = 1_000;
const MAX_USAGE_TOOL_USES = 5_000;

/**
 * Reports of which tools were used for which requests (POST …/usage), optionally for one model and
 * agent: then a tool they may not see is ignored.
 */
export const usageReportBody = z
  .strictObject({
    events: z
      .array(
        z.strictObject({
          query: z.string().trim().min(1, "Give the user message the turn answered.").max(4_000),
          used: z.array(z.string().trim().min(1).max(200)).min(1, "Name at least one tool that was used.").max(20),
          conversationId: z.string().min(1).max(200).optional(),
        }),
      )
      .min(1, "Give at least one event.")
      .max(MAX_USAGE_EVENTS, `At most ${MAX_USAGE_EVENTS} events per report: send the rest in another.`)
      .refine((events) => events.reduce((uses, event) => uses + event.used.length, 0) <= MAX_USAGE_TOOL_USES, {
        message: `At most ${MAX_USAGE_TOOL_USES} tool uses in all events of one report: send the rest in another.`,
      }),
    model: turnFields.model.optional(),
    agent: turnFields.agent.optional(),
  })
  .refine((body) => (body.model === undefined) === (body.agent === undefined), { message: "Give both model and agent, or neither.", path: ["agent"] });

export const learningBody = z.strictObject({ enabled: z.boolean() });

export const learningQuery = z.strictObject({ tool: z.string().trim().min(1).max(200).optional() });
