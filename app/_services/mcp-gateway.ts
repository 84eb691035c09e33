import "server-only";
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { appendMessage, getConversation, openConversation } from "@/db/queries/conversations";
import type { ToolRecord } from "@/db/queries/tools";
import { toToolSearchAnswer, unavailableToolMessage } from "@/lib/ai/turn-tools";
import type { mcpGatewayQuery } from "@/lib/api-schemas";
import { actorOf, type Access, type Principal } from "@/lib/auth/policy";
import { ToolshedError } from "@/lib/errors";
import { GatewaySessions } from "@/lib/gateway/sessions";
import { TOOL_CALL_DEFINITION, TOOL_CALL_NAME, toolCallInput } from "@/lib/gateway/tool-call";
import { assembleTurnToolSet } from "@/lib/selection/turn";
import { TOOL_SEARCH_DEFINITION, TOOL_SEARCH_NAME, toolSearchInput } from "@/lib/selection/tool-search-definition";
import { limitMcpResult, mcpResultMaxChars } from "@/lib/sources/mcp";
import type { ToolDefinition } from "@/lib/tools/types";
import { enforceRateLimit } from "./access";
import { readTurnView, runToolSearchCall, selectorById, selectorCallsModel } from "./selection";
import { callMcpToolForModel } from "./sources";

/**
 * The MCP gateway: a Streamable HTTP MCP server per catalog (…/api/catalogs/{catalog}/mcp), one
 * session per model and agent turn set. `tools/list` answers the agent's base tools, ToolSearch,
 * ToolCall and what ToolSearch found in the session, with every pipeline stage applied; calls of
 * MCP-sourced tools go to their server. Everything is decided afresh on each request (the catalog,
 * the agent's permissions, held-back definitions, the caller's role or token), never only when
 * the list was given. Each session is a conversation: ToolSearch calls are its decisions, and
 * every call made through the gateway is one of its messages.
 */

export type GatewayTurn = z.infer<typeof mcpGatewayQuery>;

/** Who sends the current request, and the access it has in the catalog now. */
interface Caller {
  principal: Principal;
  access: Access;
}

interface GatewaySession {
  catalogId: string;
  turn: GatewayTurn;
  owner: string;
  conversationId?: string;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
}

const SESSION_IDLE_MS = 30 * 60_000;
const SESSIONS_PER_CALLER = 16;
const SERVER_INFO = { name: "toolshed", title: "Toolshed", version: "0.1.0" };

const shared = globalThis as unknown as { toolshedGatewaySessions?: GatewaySessions<GatewaySession> };

function sessions(): GatewaySessions<GatewaySession> {
  shared.toolshedGatewaySessions ??= new GatewaySessions({ idleMs: SESSION_IDLE_MS, perCaller: SESSIONS_PER_CALLER });
  return shared.toolshedGatewaySessions;
}

/** For tests: ends every session. */
export function closeGatewaySessions(): void {
  sessions().closeAll();
}

const ownerOf = (principal: Principal) => `${principal.kind}:${principal.id}`;

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

/**
 * Answers one HTTP request to the gateway; the route has authenticated the caller and checked its
 * read access to the catalog. A request naming a session that does not exist, has expired, or was
 * opened by someone else is answered 404, which tells a client to start a new session.
 */
export async function handleGatewayRequest(request: Request, catalogId: string, caller: Caller, turn: () => GatewayTurn): Promise<Response> {
  const authInfo: AuthInfo = { token: "", clientId: ownerOf(caller.principal), scopes: [caller.access], extra: { caller } };
  const sessionId = request.headers.get("mcp-session-id");
  if (sessionId) {
    const session = sessions().get(sessionId, ownerOf(caller.principal));
    if (!session || session.catalogId !== catalogId)
      return jsonRpcError(404, -32001, "Session not found: start a new one (initialize without Mcp-Session-Id).");
    return session.transport.handleRequest(request, { authInfo });
  }
  if (request.method !== "POST") return jsonRpcError(400, ErrorCode.InvalidRequest, "Bad Request: this request needs an Mcp-Session-Id header.");
  const session = await openSession(catalogId, caller, turn());
  const response = await session.transport.handleRequest(request, { authInfo });
  // Not an initialize request (the transport refused it): nothing to keep.
  if (session.transport.sessionId === undefined) await session.close();
  return response;
}

async function openSession(catalogId: string, caller: Caller, turn: GatewayTurn): Promise<GatewaySession> {
  // Refused now, in plain HTTP, rather than at the first tools/list: an unknown agent or selector.
  await readTurnView(getDb(), catalogId, turn);
  if (turn.selector !== undefined) selectorById(turn.selector);
  const owner = ownerOf(caller.principal);
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    instructions: `The tools of the Toolshed catalog "${catalogId}" for ${turn.model} and the agent "${turn.agent}". Call ${TOOL_SEARCH_NAME} to find a tool you lack; what it finds joins your tool list, and ${TOOL_CALL_NAME} calls it if your list does not show it.`,
  });
  const session: GatewaySession = {
    catalogId,
    turn,
    owner,
    server,
    transport: new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        session.conversationId = openConversation(getDb(), catalogId, undefined, {
          model: turn.model,
          agent: turn.agent,
          mode: turn.mode,
          flags: turn.flags,
          title: `MCP session of ${actorOf(caller.principal)}`,
        }).id;
        sessions().add(id, owner, session);
      },
      onsessionclosed: (id) => sessions().remove(id),
    }),
    close: () => server.close(),
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await listTools(session) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const caller = (extra.authInfo?.extra as { caller: Caller } | undefined)?.caller;
    if (!caller) throw new McpError(ErrorCode.InternalError, "The request carries no caller.");
    try {
      return await callTool(session, caller, request.params.name, request.params.arguments ?? {}, () =>
        extra.sendNotification({ method: "notifications/tools/list_changed" }),
      );
    } catch (error) {
      if (error instanceof ToolshedError) throw new McpError(ErrorCode.InvalidRequest, error.message);
      throw error;
    }
  });
  await server.connect(session.transport);
  return session;
}

const conversationOf = (session: GatewaySession) => {
  if (session.conversationId === undefined) throw new McpError(ErrorCode.InvalidRequest, "Initialize the session first.");
  return session.conversationId;
};

/** The session's turn set as it is now: base tools, those ToolSearch found, as visible to this model and agent. */
async function currentTurnSet(session: GatewaySession) {
  const db = getDb();
  const { state, view } = await readTurnView(db, session.catalogId, session.turn);
  const agent = state.agents.find((candidate) => candidate.name === session.turn.agent)!;
  const history = getConversation(db, conversationOf(session)).history;
  const { entries } = assembleTurnToolSet({ baseTools: agent.baseTools, preselected: [], history, view });
  const names = entries.filter((entry) => entry.origin !== "entry").map((entry) => entry.name);
  const records = new Map((state.tools as ToolRecord[]).map((tool) => [tool.name, tool]));
  return { view, names, records };
}

function mcpTool(definition: ToolDefinition, annotations?: Record<string, unknown>): McpTool {
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema as McpTool["inputSchema"],
    ...(annotations ? { annotations } : {}),
  };
}

async function listTools(session: GatewaySession): Promise<McpTool[]> {
  const { view, names, records } = await currentTurnSet(session);
  return [
    // An MCP tool's annotations are its server's, pinned with its definition (lib/tools/pinning.ts).
    ...names.map((name) => mcpTool(view.visible.get(name)!, records.get(name)?.meta?.annotations)),
    mcpTool(TOOL_SEARCH_DEFINITION),
    mcpTool(TOOL_CALL_DEFINITION),
  ];
}

function parseInput<T>(schema: z.ZodType<T>, tool: string, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new McpError(ErrorCode.InvalidParams, `${tool}: ${issue.message} (${issue.path.join(".") || "arguments"})`);
}

const textResult = (text: string, isError = false): CallToolResult => ({ content: [{ type: "text", text }], ...(isError ? { isError } : {}) });

async function callTool(
  session: GatewaySession,
  caller: Caller,
  name: string,
  args: Record<string, unknown>,
  listChanged: () => Promise<void>,
): Promise<CallToolResult> {
  if (name === TOOL_SEARCH_NAME) return search(session, caller, parseInput(toolSearchInput, name, args), listChanged);
  if (name === TOOL_CALL_NAME) {
    const call = parseInput(toolCallInput, name, args);
    return callCatalogTool(session, caller, call.name, call.arguments ?? {}, TOOL_CALL_NAME);
  }
  return callCatalogTool(session, caller, name, args, "direct");
}

async function search(
  session: GatewaySession,
  caller: Caller,
  input: z.infer<typeof toolSearchInput>,
  listChanged: () => Promise<void>,
): Promise<CallToolResult> {
  if (selectorCallsModel(session.turn.selector)) await enforceRateLimit(caller.principal, "model");
  const listed = new Set((await currentTurnSet(session)).names);
  const result = await runToolSearchCall(getDb(), session.catalogId, {
    ...session.turn,
    conversationId: conversationOf(session),
    query: input.query,
    maxResults: input.max_results,
  });
  if (result.tools.some((tool) => !listed.has(tool.name))) await listChanged();
  const answer = toToolSearchAnswer(result);
  return textResult(JSON.stringify({ ...answer, note: `${answer.note} If your tool list does not show them, call them through ${TOOL_CALL_NAME}.` }, null, 2));
}

/**
 * Calls a tool of the session's turn set, checked at call time: a tool this model and agent may
 * not see now (denied, disabled, held back, not found yet, or not in the catalog) is refused with
 * the same words whatever the reason, so a refusal tells nothing about what exists.
 */
async function callCatalogTool(
  session: GatewaySession,
  caller: Caller,
  name: string,
  args: Record<string, unknown>,
  via: "direct" | typeof TOOL_CALL_NAME,
): Promise<CallToolResult> {
  const { names, records } = await currentTurnSet(session);
  if (name === TOOL_SEARCH_NAME || name === TOOL_CALL_NAME || !names.includes(name)) throw new McpError(ErrorCode.InvalidParams, unavailableToolMessage(name));
  const tool = records.get(name)!;
  if (tool.source !== "mcp" || !tool.sourceRef || !tool.meta?.mcpName) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      `${name} is a ${tool.source} tool: Toolshed holds its definition, not an implementation, so it cannot be called through this gateway. Your agent runs it itself.`,
    );
  }
  const started = performance.now();
  let result: CallToolResult;
  try {
    const answer = limitMcpResult(
      await callMcpToolForModel(getDb(), session.catalogId, tool.sourceRef, tool.meta.mcpName, args, { upstreamDetails: caller.access === "admin" }),
      mcpResultMaxChars(process.env),
    );
    result = {
      content: answer.content,
      ...(answer.isError ? { isError: true } : {}),
      ...(answer.structuredContent ? { structuredContent: answer.structuredContent } : {}),
    };
  } catch (error) {
    // The server failed (a timeout, a crash): the model reads what happened, as with a tool's own error.
    result = textResult(error instanceof Error ? error.message : String(error), true);
  }
  appendMessage(getDb(), conversationOf(session), {
    role: "tool",
    content: "",
    details: {
      gatewayCall: { tool: name, via, arguments: args, result, latencyMs: Math.round(performance.now() - started), actor: actorOf(caller.principal) },
    },
  });
  return result;
}
