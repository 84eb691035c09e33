import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  RootsListChangedNotificationSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { getConversation, openConversation } from "@/db/queries/conversations";
import type { ToolRecord } from "@/db/queries/tools";
import { toToolSearchAnswer } from "@/lib/ai/turn-tools";
import type { mcpGatewayQuery } from "@/lib/api-schemas";
import { type GatewayScope, insufficientScopeChallenge, scopesCover } from "@/lib/auth/oauth";
import { publicOrigin } from "@/lib/auth/origin";
import { actorOf, principalKey, type Access, type Principal } from "@/lib/auth/policy";
import { ToolshedError } from "@/lib/errors";
import { readBodyText } from "@/lib/http";
import { type CallApproval, sessionToolNames } from "@/lib/gateway/call-check";
import { answersOf, initializeParams, onlyAnswers, scopeNeeded, toolListFingerprint } from "@/lib/gateway/messages";
import { TOOL_CALL_DEFINITION, TOOL_CALL_NAME, toolCallInput } from "@/lib/gateway/tool-call";
import { pageOf } from "@/lib/gateway/pages";
import { mcpTool } from "@/lib/gateway/served-tools";
import { TOOL_SEARCH_DEFINITION, TOOL_SEARCH_NAME, toolSearchInput } from "@/lib/selection/tool-search-definition";
import type { McpCallOptions } from "@/lib/sources/mcp";
import { enforceRateLimit } from "./access";
import { readTurnView, runToolSearchCall, selectorById, selectorCallsModel } from "./selection";
import { GatewaySessionStore, type LiveSession } from "./mcp-gateway-sessions";
import { callCatalogTool, textResult } from "./mcp-gateway-call";
import { bridgedConnections, callingClientOf } from "./mcp-bridge";
import { FEDERATION_CAPABILITIES, federationFingerprints, serveFederation } from "./mcp-gateway-federation";

/**
 * The MCP gateway: a Streamable HTTP MCP server per catalog (…/api/catalogs/{catalog}/mcp), one
 * session per model and agent turn set. `tools/list` answers the agent's base tools, ToolSearch,
 * ToolCall and what ToolSearch found in the session, with every pipeline stage applied; calls of
 * MCP-sourced tools go to their server. Everything is decided afresh on each request (the catalog,
 * the agent's permissions, held-back definitions, the caller's role or token), never only when
 * the list was given; a tool the agent must ask about is called only once the user approved it
 * (MCP elicitation). Each session is a conversation: its ToolSearch calls and every call made or
 * refused through the gateway are its decisions, and every call made is one of its messages.
 */

export type GatewayTurn = z.infer<typeof mcpGatewayQuery>;

/** Who sends the current request, and the access it has in the catalog now. */
export interface Caller {
  principal: Principal;
  access: Access;
  /** An OAuth client's scopes here (within what the person's role allows); absent for API tokens and sessions, which only their access limits. */
  scopes?: readonly GatewayScope[];
}

export type GatewaySession = LiveSession<GatewayTurn>;

/** How long a call waits for the user to approve it. */
const APPROVAL_TIMEOUT_MS = 10 * 60_000;
const SERVER_INFO = { name: "toolshed", title: "Toolshed", version: "0.1.0" };

const sessions = new GatewaySessionStore<GatewayTurn>({
  createServer,
  listFingerprint: async (session) => toolListFingerprint(await listTools(session)),
  federationFingerprints: (session) => federationFingerprints(session.catalogId, session.turn),
});

/** Stops serving every session on this instance, closing its streams (shutdown: app/_services/shutdown.ts, and tests): their rows stay, another instance may go on. */
export function closeGatewaySessions(): void {
  sessions.closeAll();
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

/** A 403 that tells an OAuth client which scope to ask the person for (RFC 6750 §3.1, MCP's step-up authorization). */
function insufficientScope(catalogId: string, needed: GatewayScope, authorization: string | null): Response {
  const response = jsonRpcError(403, -32000, `This OAuth access token lacks the scope ${needed}, which this request needs.`);
  response.headers.set("www-authenticate", insufficientScopeChallenge(publicOrigin(), catalogId, needed, authorization));
  return response;
}

/** What the SDK's transport accepts in one request (its own default). */
const GATEWAY_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * A POST's JSON body, read once here (within the limit) and handed to the transport parsed: the
 * gateway decides from it whether it opens a session or carries answers. Undefined for other
 * methods and other content types, which the transport answers itself; a Response for a body too
 * large or not JSON.
 */
async function readBody(request: Request): Promise<{ body?: unknown } | Response> {
  if (request.method !== "POST" || !request.headers.get("content-type")?.includes("application/json")) return {};
  let text: string;
  try {
    text = await readBodyText(request, GATEWAY_BODY_LIMIT);
  } catch (error) {
    return jsonRpcError(413, -32000, error instanceof Error ? error.message : String(error));
  }
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return jsonRpcError(400, ErrorCode.ParseError, "Parse error: the body is not valid JSON.");
  }
}

/**
 * Answers one HTTP request to the gateway; the route has authenticated the caller and checked its
 * read access to the catalog. A request naming a session that does not exist, has expired, or was
 * opened by someone else is answered 404, which tells a client to start a new session.
 */
export async function handleGatewayRequest(request: Request, catalogId: string, caller: Caller, turn: () => GatewayTurn): Promise<Response> {
  const authInfo: AuthInfo = { token: "", clientId: principalKey(caller.principal), scopes: [caller.access], extra: { caller } };
  const sessionId = request.headers.get("mcp-session-id");
  const read = await readBody(request);
  if (read instanceof Response) return read;
  const { body } = read;
  const needed = scopeNeeded(body);
  if (caller.scopes && !scopesCover(caller.scopes, needed)) return insufficientScope(catalogId, needed, request.headers.get("authorization"));
  const options = { authInfo, ...(body === undefined ? {} : { parsedBody: body }) };
  if (sessionId) {
    const session = await sessions.find(sessionId, catalogId, principalKey(caller.principal));
    if (!session) return jsonRpcError(404, -32001, "Session not found: start a new one (initialize without Mcp-Session-Id).");
    if (onlyAnswers(body)) {
      await sessions.deliverAnswers(session, answersOf(body));
      return new Response(null, { status: 202 });
    }
    return session.transport.handleRequest(request, options);
  }
  if (request.method !== "POST") return jsonRpcError(400, ErrorCode.InvalidRequest, "Bad Request: this request needs an Mcp-Session-Id header.");
  const { hello, problem } = initializeParams(body);
  if (problem) return jsonRpcError(400, ErrorCode.InvalidParams, problem);
  if (!hello) return jsonRpcError(400, ErrorCode.InvalidRequest, "Bad Request: start a session with an initialize request (no Mcp-Session-Id).");
  // Refused now, in plain HTTP, rather than at the first tools/list: an unknown agent or selector.
  const chosen = turn();
  await readTurnView(getDb(), catalogId, chosen);
  if (chosen.selector !== undefined) selectorById(chosen.selector);
  const owner = principalKey(caller.principal);
  const session = sessions.open(catalogId, chosen, owner, hello, async () => {
    const conversation = await openConversation(getDb(), catalogId, undefined, {
      model: chosen.model,
      agent: chosen.agent,
      mode: chosen.mode,
      flags: chosen.flags,
      title: `MCP session of ${actorOf(caller.principal)}`,
      owner,
    });
    return conversation.id;
  });
  await session.server.connect(session.transport);
  const response = await session.transport.handleRequest(request, options);
  // The transport refused the request (e.g. its Accept header): nothing to keep.
  if (session.transport.sessionId === undefined) await session.server.close();
  return response;
}

/** The gateway's MCP server for one session: what it declares and how it answers. */
function createServer(current: () => GatewaySession): Server {
  const { catalogId, turn } = current();
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, ...FEDERATION_CAPABILITIES },
    instructions: `The tools of the Toolshed catalog "${catalogId}" for ${turn.model} and the agent "${turn.agent}". Call ${TOOL_SEARCH_NAME} to find a tool you lack; what it finds joins your tool list, and ${TOOL_CALL_NAME} calls any tool you may use, listed or not.`,
  });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const session = current();
    const tools = await listTools(session);
    const fingerprint = toolListFingerprint(tools);
    const paged = pageOf(tools, fingerprint, request.params?.cursor);
    if ("invalid" in paged) throw new McpError(ErrorCode.InvalidParams, paged.invalid);
    session.listed = fingerprint;
    return { tools: paged.page, ...(paged.nextCursor ? { nextCursor: paged.nextCursor } : {}) };
  });
  // The client's roots reach the servers of its own connections (mcp-bridge.ts), which close with the session.
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => bridgedConnections().rootsChanged(current().id));
  server.onclose = () => void bridgedConnections().closeSession(current().id);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const caller = (extra.authInfo?.extra as { caller: Caller } | undefined)?.caller;
    if (!caller) throw new McpError(ErrorCode.InternalError, "The request carries no caller.");
    try {
      return await callTool(current(), caller, request.params.name, request.params.arguments ?? {}, extra);
    } catch (error) {
      if (error instanceof ToolshedError) throw new McpError(ErrorCode.InvalidRequest, error.message);
      throw error;
    }
  });
  // Resources and prompts of the catalog's servers: mcp-gateway-federation.ts.
  serveFederation(server, current);
  return server;
}

/** The session's turn set as it is now: base tools, those ToolSearch found, as visible to this model and agent. */
async function currentTurnSet(session: GatewaySession) {
  const db = getDb();
  const { state, view } = await readTurnView(db, session.catalogId, session.turn);
  const agent = state.agents.find((candidate) => candidate.name === session.turn.agent)!;
  const names = sessionToolNames(view, agent.baseTools, (await getConversation(db, session.conversationId)).history);
  // The registry view's map of every tool by name (kept per catalog state), not a new one per list: 30–70 ms at 50,000 tools.
  const records = view.all as Map<string, ToolRecord>;
  return { revision: state.revision, view, names, records };
}

async function listTools(session: GatewaySession): Promise<McpTool[]> {
  const { view, names, records } = await currentTurnSet(session);
  return [
    // An MCP tool's title, output schema, annotations and _meta are its server's, pinned with its definition (lib/tools/pinning.ts).
    ...names.map((name) => mcpTool(view.visible.get(name)!, records.get(name)?.meta)),
    mcpTool(TOOL_SEARCH_DEFINITION),
    mcpTool(TOOL_CALL_DEFINITION),
  ];
}

/**
 * The gateway's own tools' arguments, or a tool error listing every problem: invalid input is the
 * model's to correct (MCP 2025-11-25), not a protocol error its client may never show it.
 */
function parseInput<T>(schema: z.ZodType<T>, tool: string, input: unknown): { data: T } | { invalid: CallToolResult } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { data: parsed.data };
  const problems = parsed.error.issues.map((issue) => `- ${issue.path.join(".") || "arguments"}: ${issue.message}`);
  return { invalid: textResult(`${tool} was not run: its arguments are invalid.\n${problems.join("\n")}\nCorrect them and call ${tool} again.`, true) };
}

type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

async function callTool(session: GatewaySession, caller: Caller, name: string, args: Record<string, unknown>, extra: RequestExtra): Promise<CallToolResult> {
  if (name === TOOL_SEARCH_NAME) {
    const input = parseInput(toolSearchInput, name, args);
    if ("invalid" in input) return input.invalid;
    return search(session, caller, input.data, () => extra.sendNotification({ method: "notifications/tools/list_changed" }));
  }
  const approve = (message: string) => askApproval(session, message, extra);
  // The client's cancellation reaches the upstream call, and the upstream's progress reaches the client (on the call's stream).
  const progressToken = extra._meta?.progressToken;
  // A client that answers roots, sampling or elicitation is asked by the servers it calls, tied to this call.
  const client = callingClientOf(session);
  const upstream: McpCallOptions = {
    signal: extra.signal,
    ...(client ? { caller: { client, requestId: extra.requestId } } : {}),
    ...(progressToken === undefined
      ? {}
      : {
          onProgress: (progress) =>
            void extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...progress } }).catch(() => undefined),
        }),
  };
  if (name === TOOL_CALL_NAME) {
    const input = parseInput(toolCallInput, name, args);
    if ("invalid" in input) return input.invalid;
    return callCatalogTool(session, caller, { name: input.data.name, args: input.data.arguments ?? {}, via: TOOL_CALL_NAME }, approve, upstream);
  }
  return callCatalogTool(session, caller, { name, args, via: "direct" }, approve, upstream);
}

/**
 * Asks the user (through the client, MCP elicitation) to approve one call. A client that did not
 * declare elicitation cannot ask: "unavailable". No answer in time counts as dismissed.
 */
async function askApproval(session: GatewaySession, message: string, extra: RequestExtra): Promise<Exclude<CallApproval, null>> {
  if (!session.server.getClientCapabilities()?.elicitation?.form) return "unavailable";
  // The client's answer may reach another instance: this one then reads it from the database.
  session.awaitingAnswers++;
  try {
    const answer = await session.server.elicitInput(
      { mode: "form", message, requestedSchema: { type: "object", properties: {} } },
      // On the call's own response stream, and given up with the call.
      { relatedRequestId: extra.requestId, signal: extra.signal, timeout: APPROVAL_TIMEOUT_MS },
    );
    return answer.action === "accept" ? "accepted" : answer.action === "decline" ? "declined" : "cancelled";
  } catch (error) {
    // No answer in time, or the client gave the call up while the user was asked: the SDK says "timeout" for both.
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return "cancelled";
    throw error;
  } finally {
    session.awaitingAnswers--;
  }
}

async function search(
  session: GatewaySession,
  caller: Caller,
  input: z.infer<typeof toolSearchInput>,
  listChanged: () => Promise<void>,
): Promise<CallToolResult> {
  if (selectorCallsModel(session.turn.selector)) await enforceRateLimit(caller.principal, "model");
  const listed = new Set((await currentTurnSet(session)).names);
  const result = await runToolSearchCall(
    getDb(),
    session.catalogId,
    { ...session.turn, conversationId: session.conversationId, query: input.query, maxResults: input.max_results },
    session.owner,
  );
  if (result.tools.some((tool) => !listed.has(tool.name))) await listChanged();
  const answer = toToolSearchAnswer(result);
  return textResult(JSON.stringify({ ...answer, note: `${answer.note} If your tool list does not show them, call them through ${TOOL_CALL_NAME}.` }, null, 2));
}
