import { z } from "zod";
import {
  agentBody,
  applyQuery,
  auditQuery,
  cloneBody,
  createCatalogBody,
  decisionQuery,
  definitionReviewBody,
  evaluationBody,
  evaluationQuery,
  exportQuery,
  importQuery,
  mcpGatewayQuery,
  mcpServerBody,
  playgroundBody,
  preselectBody,
  qualityQuery,
  replayBody,
  restoreBody,
  rulesBody,
  toolBody,
  toolBulkBody,
  toolListBody,
  toolPageQuery,
  toolSearchBody,
  updateCatalogBody,
  usageStatsQuery,
  usageReportBody,
  learningBody,
  learningQuery,
} from "./api-schemas";
import { apiResponses, type ApiResponseName } from "./api-responses";
import { apiTokenBody, createTeamBody, invitationBody, memberRoleBody } from "./team-schemas";

/**
 * The HTTP API as an OpenAPI 3.1 document, made from the zod schemas the route handlers validate
 * requests with (lib/api-schemas.ts, lib/team-schemas.ts) and the response schemas beside them
 * (lib/api-responses.ts). Served at GET /api/openapi.json and drawn by the /api-reference page;
 * tests/api/openapi.test.ts checks that every route handler is in it and that answers match it.
 */

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

/** Who may call an operation: anyone, any signed-in caller, or a role (token scope) in the catalog's or team's team. */
type Access = "public" | "signed-in" | "read" | "write" | "admin" | "better-auth" | "metrics";

const ACCESS_TEXT: Record<Access, string> = {
  public: "No authentication.",
  "signed-in": "Any signed-in caller (API token or session).",
  read: "Viewer role, or a token with read scope, in the owning team.",
  write: "Editor role, or a token with write scope, in the owning team.",
  admin: "Admin role, or a token with admin scope, in the owning team.",
  "better-auth": "better-auth's own endpoints (sign-in, sign-out, session, OAuth callbacks); they answer in better-auth's shape.",
  metrics: "An instance admin, or a token of scope instance or metrics (made only on the command line).",
};

type RequestSchemaName = keyof typeof requestSchemas;
type QueryParameter = { name: string; description?: string; schema: object; required: boolean };

/** A success answer: a named JSON body, no body, or a body of another media type. */
type Answer = ApiResponseName | { description: string; mediaType?: string; schema?: object };

interface Operation {
  summary: string;
  description?: string;
  access: Access;
  query?: RequestSchemaName;
  body?: RequestSchemaName | { mediaType: string; description: string };
  /** The body may be left out (e.g. a replay with the decision's own selector). */
  bodyOptional?: boolean;
  responses: Partial<Record<200 | 201 | 202 | 204 | 304, Answer>>;
}

/** Request schemas by the component name the document gives them. */
const requestSchemas = {
  CreateCatalogBody: createCatalogBody,
  UpdateCatalogBody: updateCatalogBody,
  ToolBody: toolBody,
  ToolBulkBody: toolBulkBody,
  ToolPageQuery: toolPageQuery,
  ToolListBody: toolListBody,
  ImportQuery: importQuery,
  ExportQuery: exportQuery,
  ApplyQuery: applyQuery,
  CloneBody: cloneBody,
  RulesBody: rulesBody,
  AgentBody: agentBody,
  AuditQuery: auditQuery,
  RestoreBody: restoreBody,
  PreselectBody: preselectBody,
  ToolSearchBody: toolSearchBody,
  DecisionQuery: decisionQuery,
  ReplayBody: replayBody,
  PlaygroundBody: playgroundBody,
  McpServerBody: mcpServerBody,
  McpGatewayQuery: mcpGatewayQuery,
  DefinitionReviewBody: definitionReviewBody,
  EvaluationBody: evaluationBody,
  EvaluationQuery: evaluationQuery,
  QualityQuery: qualityQuery,
  UsageStatsQuery: usageStatsQuery,
  UsageReportBody: usageReportBody,
  LearningBody: learningBody,
  LearningQuery: learningQuery,
  CreateTeamBody: createTeamBody,
  MemberRoleBody: memberRoleBody,
  InvitationBody: invitationBody,
  ApiTokenBody: apiTokenBody,
} satisfies Record<string, z.ZodType>;

const NO_CONTENT: Answer = { description: "Done; no body." };

/** Every route file under app/api, by its path with `{parameters}`, and the methods it answers. */
const API_OPERATIONS: Record<string, Partial<Record<HttpMethod, Operation>>> = {
  "/api/health": { get: { summary: "Liveness check", access: "public", responses: { 200: "Health" } } },
  "/api/metrics": {
    get: {
      summary: "This instance's metrics (Prometheus)",
      access: "metrics",
      responses: { 200: { description: "Prometheus text exposition format 0.0.4.", mediaType: "text/plain", schema: { type: "string" } } },
    },
  },
  "/api/openapi.json": {
    get: { summary: "This OpenAPI document", access: "public", responses: { 200: { description: "The OpenAPI 3.1 document.", schema: { type: "object" } } } },
  },
  "/api/auth/{path}": {
    get: { summary: "better-auth endpoints (GET)", access: "better-auth", responses: { 200: { description: "better-auth's answer." } } },
    post: {
      summary: "better-auth endpoints (POST), e.g. sign-in/email, sign-out",
      access: "better-auth",
      responses: { 200: { description: "better-auth's answer." } },
    },
  },
  "/api/oauth/authorization-server": {
    get: {
      summary: "OAuth authorization server metadata (RFC 8414)",
      description: "Also at `/.well-known/oauth-authorization-server` and `/.well-known/oauth-authorization-server/api/auth` (rewrites).",
      access: "public",
      responses: { 200: { description: "The metadata document.", schema: { type: "object" } } },
    },
  },
  "/api/oauth/protected-resource/{catalog}": {
    get: {
      summary: "A catalog gateway's OAuth Protected Resource Metadata (RFC 9728)",
      description: "Also at `/.well-known/oauth-protected-resource/api/catalogs/{catalog}/mcp` (rewrite), where the gateway's 401s point.",
      access: "public",
      responses: { 200: { description: "The metadata document.", schema: { type: "object" } } },
    },
  },
  "/api/catalogs": {
    get: { summary: "The catalogs of the caller's teams", access: "signed-in", responses: { 200: "CatalogList" } },
    post: {
      summary: "Create a catalog",
      description:
        "Without `team`, the catalog goes to the caller's only team, else to `default`; needs the editor role there. Ids are shared by every team: a given `id` that is taken (by any team) is a 409; without one, the id is the name's slug, with a random suffix if that is taken.",
      access: "signed-in",
      body: "CreateCatalogBody",
      responses: { 201: "CatalogAnswer" },
    },
  },
  "/api/catalogs/{catalog}": {
    get: { summary: "A catalog", access: "read", responses: { 200: "CatalogAnswer" } },
    patch: { summary: "Rename or describe a catalog", access: "write", body: "UpdateCatalogBody", responses: { 200: "CatalogAnswer" } },
    delete: { summary: "Delete a catalog with everything in it", access: "admin", responses: { 204: NO_CONTENT } },
  },
  "/api/catalogs/{catalog}/tools": {
    get: {
      summary: "Every tool, or one page of them",
      description: "Without any query parameter: `{ tools }`, every tool. With any of them: one page with facets.",
      access: "read",
      query: "ToolPageQuery",
      responses: { 200: { description: "`ToolList` without parameters, `ToolPage` with any.", schema: { oneOf: [ref("ToolList"), ref("ToolPage")] } } },
    },
    post: { summary: "Create a custom tool", access: "write", body: "ToolBody", responses: { 201: "ToolAnswer" } },
  },
  "/api/catalogs/{catalog}/tools-bulk": {
    post: {
      summary: "Enable, disable, retag, delete, move or copy many tools as one change, or undo one",
      description:
        'The tools by `names`, or every tool `matching` the tools table\'s filters. One transaction and one revision, audited as a catalog entry naming the action, count and tools plus an entry per tool; move and copy make one revision of the target catalog too and need the editor role there. A tool its source owns is not deleted or moved (`skipped` says why); a name the catalog lacks, or a name the target has already, refuses the whole change. `{ action: "undo", revision }` takes back a bulk enable, disable, tag or delete.',
      access: "write",
      body: "ToolBulkBody",
      responses: { 200: "ToolBulkResult" },
    },
  },
  "/api/catalogs/{catalog}/tools/{name}": {
    get: { summary: "A tool", access: "read", responses: { 200: "ToolAnswer" } },
    patch: {
      summary: "Change a tool",
      description: "Any subset of the fields; a tool managed by its source takes `enabled` and `tags` only.",
      access: "write",
      body: "ToolBody",
      responses: { 200: "ToolAnswer" },
    },
    delete: { summary: "Delete a custom tool with every reference to it", access: "write", responses: { 200: "ToolDeletion" } },
  },
  "/api/catalogs/{catalog}/tools/{name}/audit": {
    get: {
      summary: "A tool's audit history",
      description: "Newest first; each entry names who made it (`actorName`).",
      access: "read",
      responses: { 200: "AuditHistory" },
    },
  },
  "/api/catalogs/{catalog}/tools/{name}/findings": {
    get: {
      summary: "What the tool-poisoning check finds in a tool's text",
      description:
        "Instructions to the model, hidden content, keyword stuffing and outsized descriptions in the description, summary and parameter descriptions, most severe first; none for built-in tools.",
      access: "read",
      responses: { 200: "ToolFindings" },
    },
  },
  "/api/catalogs/{catalog}/audit": {
    get: {
      summary: "The audit history of the catalog's rules or agents",
      description: "Newest first; each entry names who made it (`actorName`).",
      access: "read",
      query: "AuditQuery",
      responses: { 200: "AuditHistory" },
    },
  },
  "/api/catalogs/{catalog}/audit/{id}/restore": {
    post: {
      summary: "Restore the version of a tool, agent or part of the rules an audit entry recorded",
      description:
        "Written as an edit is (same checks, one revision; its audit entries say `restored from #<id> (<version>)`). A deleted tool or agent is created again; a name now taken, a source's tool that is gone, or a version that no longer validates is refused with the reason.",
      access: "write",
      body: "RestoreBody",
      responses: { 200: "RestoreAnswer" },
    },
  },
  "/api/catalogs/{catalog}/export": {
    get: {
      summary: "The catalog as one document",
      description: `Without "format": its tools ("toolshed.catalog" version 1), which the import reads. With "format=yaml" or "format=json": the whole catalog as code (version 2: tools, agents, rules, MCP servers with each secret a reference such as \${env:NAME}), as application/yaml or application/json, which POST …/apply reads.`,
      access: "read",
      query: "ExportQuery",
      responses: { 200: "CatalogExport" },
    },
  },
  "/api/catalogs/{catalog}/apply": {
    post: {
      summary: "Apply a catalog file, or plan it",
      description:
        "One transaction, one revision, an audit entry per change; an invalid file writes nothing and names every problem by its path in the file. With `dryRun=1`: the plan only. With `prune=1`: custom tools, agents and MCP servers the file's sections do not name are deleted. Adding, changing or deleting MCP servers needs the admin role (a stdio server: an instance admin); a server whose secrets must be resolved is refused here (`toolshed apply` on the command line reads them from its environment).",
      access: "write",
      query: "ApplyQuery",
      body: { mediaType: "application/yaml", description: "A catalog file (`GET …/export?format=yaml`), as `application/yaml` or `application/json`." },
      responses: { 200: "ApplyAnswer" },
    },
  },
  "/api/catalogs/{catalog}/clone": {
    post: {
      summary: "Clone the catalog into a new one",
      description:
        "Tools, rules, agents and MCP servers (with their secrets) are copied, in one transaction. The caller needs the admin role in the target team (by default the catalog's own); copying MCP servers asks what adding them does, and servers with secrets need the admin role in this catalog's team too.",
      access: "read",
      body: "CloneBody",
      responses: { 201: "CatalogAnswer" },
    },
  },
  "/api/catalogs/{catalog}/import": {
    post: {
      summary: "Import tools or an MCP client configuration's servers (all or nothing), or preview an import",
      description:
        "The file's format is detected: a Toolshed export or labelled set, OpenAI (Chat Completions or Responses), Anthropic or MCP tools/list tools, or an MCP client configuration (Claude Desktop, Cursor, VS Code), whose servers are added as POST …/mcp-servers adds them (admin; stdio: instance admin) → 201. Up to 1,000 tools: 200 with the result. More: 202 with a job to poll (also in `Location`). With `dryRun=1`: 200 with what the import would do to each tool or server of the file, written nowhere.",
      access: "write",
      query: "ImportQuery",
      body: {
        mediaType: "application/json",
        description:
          "A catalog export, a labelled set `{ tools: [{ name, description, parameters }] }`, OpenAI, Anthropic or MCP tools (a list or `{ tools }`), or an MCP client configuration `{ mcpServers }` / `{ servers }`; up to 64 MiB.",
      },
      responses: {
        200: { description: "`ImportResult`, or `ImportPreviewAnswer` with `dryRun`.", schema: { oneOf: [ref("ImportResult"), ref("ImportPreviewAnswer")] } },
        201: "ServerImportResult",
        202: "ImportStarted",
      },
    },
  },
  "/api/catalogs/{catalog}/import-jobs/{id}": { get: { summary: "An import job", access: "read", responses: { 200: "ImportJobAnswer" } } },
  "/api/catalogs/{catalog}/rules": {
    get: { summary: "Model rules, providers and definition overrides", access: "read", responses: { 200: "Rules" } },
    put: { summary: "Replace rules", access: "write", body: "RulesBody", responses: { 200: "Rules" } },
  },
  "/api/catalogs/{catalog}/agents": {
    get: { summary: "The catalog's agents", access: "read", responses: { 200: "AgentList" } },
    post: { summary: "Create an agent", access: "write", body: "AgentBody", responses: { 201: "AgentAnswer" } },
  },
  "/api/catalogs/{catalog}/agents/{name}": {
    get: { summary: "An agent", access: "read", responses: { 200: "AgentAnswer" } },
    put: { summary: "Replace (or rename) an agent", access: "write", body: "AgentBody", responses: { 200: "AgentAnswer" } },
    delete: { summary: "Delete an agent", access: "write", responses: { 204: NO_CONTENT } },
  },
  "/api/catalogs/{catalog}/tool-list": {
    get: {
      summary: "The tool list a model and agent see (query)",
      description:
        "The same fields as the POST body, as query parameters (`flags` repeated). Answers carry an `ETag`; `If-None-Match` with it gets 304 while the list is unchanged.",
      access: "read",
      query: "ToolListBody",
      responses: { 200: "ToolListAnswer", 304: { description: "Not modified: the list is the one the entity tag names." } },
    },
    post: {
      summary: "The tool list a model and agent see",
      description:
        "`revision` and `sourcesVersion` name what the list was worked out from: the catalog's revision and the plugin, skill and agent files of the instance that answered (the same files on every instance give the same version). Tools of an MCP server the answering instance cannot reach are left out, with that reason in the trace.",
      access: "read",
      body: "ToolListBody",
      responses: { 200: "ToolListAnswer" },
    },
  },
  "/api/catalogs/{catalog}/preselect": {
    post: {
      summary: "Preselect the tools of a turn",
      description:
        "Ranks the visible tools for the conversation and assembles the turn's tool set: base tools, the preselected, the conversation's history, ToolSearch. Recorded as a decision.",
      access: "read",
      body: "PreselectBody",
      responses: { 200: "Preselection" },
    },
  },
  "/api/catalogs/{catalog}/tool-search": {
    post: {
      summary: "ToolSearch: find tools by exact name or by need",
      description:
        '`"select:a,b"` or one exact name is resolved locally; anything else goes to the selector. Every result is checked against the registry. Recorded as a decision.',
      access: "read",
      body: "ToolSearchBody",
      responses: { 200: "ToolSearch" },
    },
  },
  "/api/catalogs/{catalog}/embeddings": {
    get: { summary: "How far the hybrid selector's embeddings are built", access: "read", responses: { 200: "Embeddings" } },
    post: { summary: "Start embedding the tools not embedded yet", access: "write", responses: { 202: "Embeddings" } },
  },
  "/api/catalogs/{catalog}/decisions": {
    get: { summary: "A page of decisions, newest first", access: "read", query: "DecisionQuery", responses: { 200: "DecisionPage" } },
  },
  "/api/decisions/{id}": { get: { summary: "A decision with its whole input", access: "read", responses: { 200: "DecisionAnswer" } } },
  "/api/decisions/{id}/replay": {
    post: {
      summary: "Replay a decision against the catalog as it is now",
      description:
        "A preselection or ToolSearch runs its recorded input again (with the selector named, or its own); a gateway call (kind `call`) is checked again, as the gateway would check it now: `after.call` says whether it would be let through or why not, `diff.call` whether the tool's definition or the need to ask the user changed. Nothing is recorded.",
      access: "read",
      body: "ReplayBody",
      bodyOptional: true,
      responses: { 200: "Replay" },
    },
  },
  "/api/catalogs/{catalog}/evaluations": {
    get: { summary: "The catalog's evaluation runs, newest first", access: "read", query: "EvaluationQuery", responses: { 200: "EvaluationPage" } },
    post: { summary: "Start an evaluation run", access: "write", body: "EvaluationBody", responses: { 202: "EvaluationAnswer" } },
  },
  "/api/catalogs/{catalog}/evaluations/{id}": { get: { summary: "An evaluation run", access: "read", responses: { 200: "EvaluationAnswer" } } },
  "/api/catalogs/{catalog}/quality": {
    get: { summary: "The description quality report", access: "read", query: "QualityQuery", responses: { 200: "Quality" } },
  },
  "/api/catalogs/{catalog}/usage-stats": {
    get: {
      summary: "Calls, errors, latencies, offers and ToolSearch finds per tool, MCP server, agent and model",
      description: "From hourly rollups written with each decision: the figures outlive the decision log's retention.",
      access: "read",
      query: "UsageStatsQuery",
      responses: { 200: "UsageStats" },
    },
  },
  "/api/catalogs/{catalog}/usage": {
    post: {
      summary: "Report which tools were used for which requests: the local selector learns from them",
      description:
        "At most 1,000 events. With `model` and `agent`, tools they may not see are ignored; so is an event whose query has no word to learn from (only stopwords, punctuation or control characters). An event with a `conversationId` counts once per request and tool; a tool that a ToolSearch of that conversation found after its preselection missed it weighs double.",
      access: "write",
      body: "UsageReportBody",
      responses: { 200: "UsageReportAnswer" },
    },
  },
  "/api/catalogs/{catalog}/learning": {
    get: {
      summary: "Whether the catalog learns from use and how much it learned; with `?tool=`, what it learned for that tool",
      access: "read",
      query: "LearningQuery",
      responses: {
        200: { description: "LearningStatus, or LearnedForTool with `?tool=`.", schema: { oneOf: [ref("LearningStatus"), ref("LearnedForTool")] } },
      },
    },
    put: {
      summary: "Turn learning from use on or off (what was learned is kept)",
      access: "write",
      body: "LearningBody",
      responses: { 200: "LearningStatus" },
    },
    delete: { summary: "Forget everything the catalog learned from use", access: "write", responses: { 200: "LearningReset" } },
  },
  "/api/catalogs/{catalog}/playground": {
    post: {
      summary: "One playground exchange",
      access: "read",
      body: "PlaygroundBody",
      responses: {
        200: {
          description:
            "An AI SDK UI message stream as server-sent events: text and tool parts, and the playground's data-* parts (lib/playground/messages.ts).",
          mediaType: "text/event-stream",
          schema: { type: "string" },
        },
      },
    },
  },
  "/api/catalogs/{catalog}/conversations": { get: { summary: "The catalog's conversations", access: "read", responses: { 200: "ConversationList" } } },
  "/api/catalogs/{catalog}/conversations/{id}": {
    get: { summary: "A conversation with its messages", access: "read", responses: { 200: "ConversationAnswer" } },
    delete: {
      summary: "Delete a conversation",
      description: "Its owner (who started it) or an editor; anyone else gets 403. Its decisions no longer replay.",
      access: "read",
      responses: { 204: NO_CONTENT },
    },
  },
  "/api/catalogs/{catalog}/mcp-servers": {
    get: { summary: "The catalog's MCP servers", access: "read", responses: { 200: "McpServerList" } },
    post: { summary: "Add an MCP server and sync it", access: "admin", body: "McpServerBody", responses: { 201: "McpServerSync" } },
  },
  "/api/catalogs/{catalog}/mcp-servers/{name}": {
    get: { summary: "An MCP server", access: "read", responses: { 200: "McpServerAnswer" } },
    delete: { summary: "Remove an MCP server and its tools", access: "admin", responses: { 204: NO_CONTENT } },
  },
  "/api/catalogs/{catalog}/mcp-servers/{name}/health": {
    get: {
      summary: "An MCP server's changes of health",
      description:
        "Each change of state (starting, connected, held-back, failing) with its cause and time, newest first; only the last 50 are kept. Causes that quote the server's errors are for admins.",
      access: "read",
      responses: { 200: "McpHealthChanges" },
    },
  },
  "/api/catalogs/{catalog}/mcp-servers/{name}/sync": { post: { summary: "Sync an MCP server's tools", access: "admin", responses: { 200: "McpServerSync" } } },
  "/api/catalogs/{catalog}/definition-reviews": {
    get: {
      summary: "The MCP tools held back until an editor reviews their definition",
      description:
        "Tools an MCP server changed since an editor approved them, or added after its first listing: the approved and the current definition, and the digest an approval names.",
      access: "read",
      responses: { 200: "DefinitionReviewList" },
    },
    post: {
      summary: "Approve or reject a held-back tool's current definition",
      description: "One audited revision. A digest other than the current definition's (the server changed it again) is a 409.",
      access: "write",
      body: "DefinitionReviewBody",
      responses: { 200: "DefinitionReviewAnswer" },
    },
  },
  "/api/catalogs/{catalog}/mcp": {
    post: {
      summary: "MCP gateway (Streamable HTTP): JSON-RPC messages",
      description:
        "An `initialize` without `Mcp-Session-Id`, with `model` and `agent` in the query, opens a session (its id comes back in `Mcp-Session-Id`); every later request names it and sends the same token. Unknown, expired or another caller's sessions are 404 (JSON-RPC error). Besides API tokens and sessions it takes OAuth access tokens issued for this gateway (scopes tools:read, tools:call); its 401s carry `WWW-Authenticate: Bearer resource_metadata=…`.",
      access: "read",
      query: "McpGatewayQuery",
      body: { mediaType: "application/json", description: "A JSON-RPC request, notification or response (MCP)." },
      responses: {
        200: { description: "The JSON-RPC answer, as a server-sent event stream.", mediaType: "text/event-stream", schema: { type: "string" } },
        202: { description: "Accepted: a notification or response." },
      },
    },
    get: {
      summary: "MCP gateway: the session's stream of server messages",
      access: "read",
      responses: { 200: { description: "Server-sent events.", mediaType: "text/event-stream", schema: { type: "string" } } },
    },
    delete: { summary: "MCP gateway: end the session", access: "read", responses: { 200: { description: "The session ended." } } },
  },
  "/api/catalogs/{catalog}/sources/reload": {
    post: { summary: "Read the plugin, skill and agent folders again", access: "admin", responses: { 200: "SourcesReload" } },
  },
  "/api/teams": {
    get: { summary: "The caller's teams", access: "signed-in", responses: { 200: "TeamList" } },
    post: { summary: "Create a team (people only, not tokens)", access: "signed-in", body: "CreateTeamBody", responses: { 201: "TeamAnswer" } },
  },
  "/api/teams/{team}/members": { get: { summary: "A team's members", access: "read", responses: { 200: "MemberList" } } },
  "/api/teams/{team}/members/{userId}": {
    put: { summary: "Change a member's role", access: "admin", body: "MemberRoleBody", responses: { 200: "MemberAnswer" } },
    delete: { summary: "Remove a member", access: "admin", responses: { 204: NO_CONTENT } },
  },
  "/api/teams/{team}/invitations": {
    get: { summary: "A team's invitations", access: "admin", responses: { 200: "InvitationList" } },
    post: { summary: "Invite someone", access: "admin", body: "InvitationBody", responses: { 201: "InvitationCreated" } },
  },
  "/api/teams/{team}/invitations/{id}": { delete: { summary: "Revoke an invitation", access: "admin", responses: { 204: NO_CONTENT } } },
  "/api/teams/{team}/tokens": {
    get: { summary: "A team's API tokens", access: "admin", responses: { 200: "TokenList" } },
    post: { summary: "Create an API token", access: "admin", body: "ApiTokenBody", responses: { 201: "TokenCreated" } },
  },
  "/api/teams/{team}/tokens/{id}": { delete: { summary: "Revoke an API token", access: "admin", responses: { 204: NO_CONTENT } } },
};

/** The paths of every route file, `{parameters}` and all: what metrics and traces name a request by (lib/observability/routes.ts). */
export const API_PATHS: readonly string[] = Object.keys(API_OPERATIONS);

function ref(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

/** A registry's schemas as components: no `$schema` or `$id` of their own (the document's dialect is 2020-12). */
function componentSchemas(schemas: Record<string, z.ZodType>, io: "input" | "output"): Record<string, object> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, { target: "draft-2020-12", io, uri: (id) => `#/components/schemas/${id}`, unrepresentable: "any" });
  return Object.fromEntries(Object.entries(converted.schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema]));
}

/** A query schema's properties as query parameters. */
function queryParameters(name: RequestSchemaName): QueryParameter[] {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(requestSchemas[name], { target: "draft-2020-12", io: "input", unrepresentable: "any" });
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, { description?: string }>).map(([property, propertySchema]) => ({
    name: property,
    ...(propertySchema.description ? { description: propertySchema.description } : {}),
    schema: propertySchema,
    required: required.has(property),
  }));
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
}

function answerObject(answer: Answer) {
  if (typeof answer === "string") return { description: answer, content: { "application/json": { schema: ref(answer) } } };
  if (!answer.schema) return { description: answer.description };
  return { description: answer.description, content: { [answer.mediaType ?? "application/json"]: { schema: answer.schema } } };
}

const ERROR_STATUSES: Record<Access, number[]> = {
  public: [],
  "better-auth": [],
  "signed-in": [401, 403, 429],
  metrics: [401, 403, 429],
  read: [401, 403, 404, 429],
  write: [401, 403, 404, 429],
  admin: [401, 403, 404, 429],
};

function operationObject(path: string, method: HttpMethod, operation: Operation) {
  const parameters = [
    ...pathParameters(path),
    ...(operation.query ? queryParameters(operation.query).map((parameter) => ({ in: "query", ...parameter })) : []),
  ];
  const body = operation.body;
  const errors = [...(body || operation.query ? [400] : []), ...ERROR_STATUSES[operation.access], ...(body ? [413] : [])].sort();
  const secured = operation.access !== "public" && operation.access !== "better-auth";
  return {
    operationId: `${method}${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? "").toUpperCase())}`,
    summary: operation.summary,
    description: [operation.description, ACCESS_TEXT[operation.access]].filter(Boolean).join("\n\n"),
    tags: [tagOf(path)],
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody:
            typeof body === "string"
              ? { required: !operation.bodyOptional, content: { "application/json": { schema: ref(body) } } }
              : { required: true, description: body.description, content: { [body.mediaType]: { schema: {} } } },
        }
      : {}),
    responses: {
      ...Object.fromEntries(Object.entries(operation.responses).map(([status, answer]) => [status, answerObject(answer)])),
      ...Object.fromEntries(errors.map((status) => [String(status), { $ref: "#/components/responses/Error" }])),
      // Any other failure (409 conflict, 502 upstream, a service's own 400…) answers in the same shape.
      ...(secured ? { default: { $ref: "#/components/responses/Error" } } : {}),
    },
    ...(secured ? { security: [{ bearerToken: [] }, { sessionCookie: [] }] } : { security: [] }),
  };
}

/** Operations are grouped by what they act on: catalogs, teams, decisions… */
function tagOf(path: string): string {
  const [, , area, , sub] = path.split("/");
  if (area === "catalogs" && sub) return sub.replace(/-/g, " ");
  return area.replace(/\.json$/, "");
}

function buildDocument() {
  const paths = Object.fromEntries(
    Object.entries(API_OPERATIONS).map(([path, operations]) => [
      path,
      Object.fromEntries(Object.entries(operations).map(([method, operation]) => [method, operationObject(path, method as HttpMethod, operation)])),
    ]),
  );
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Toolshed API",
      version: "1",
      description:
        "The registry, simulator and playground for the tool catalogs of LLM agents, over HTTP. JSON in and out; errors as `{ error: { code, message, field?, problems? } }`.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerToken: [] }, { sessionCookie: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerToken: {
          type: "http",
          scheme: "bearer",
          description:
            "A team's API token (`tsk_…`), created on the team page, over the API or with `npm run toolshed -- token create`. Its scope (read, write, admin) is its role.",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "better-auth.session_token",
          description: "A browser session from signing in. Writes must also come from Toolshed's own origin with `Content-Type: application/json`.",
        },
      },
      responses: {
        Error: { description: "An error in the JSON error shape.", content: { "application/json": { schema: ref("Error") } } },
      },
      schemas: { ...componentSchemas(requestSchemas, "input"), ...componentSchemas(apiResponses, "output") },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildDocument>;

let document: OpenApiDocument | undefined;

/** The document, made once per process: the schemas it comes from do not change while it runs. */
export function openApiDocument(): OpenApiDocument {
  document ??= buildDocument();
  return document;
}
