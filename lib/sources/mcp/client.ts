import "server-only";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  McpError,
  type CallToolResult,
  type ContentBlock,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ToolshedError } from "../../errors";
import { hostSecretValues, longestSecretForm, scrubJson, secretMasker } from "../../secrets/scrub";
import type { CallerOfCall } from "./client-capabilities";
import { adaptMcpTools, type McpToolDraft, type McpToolProblem } from "./adapt";
import { argumentValue, McpServerConfigSchema, type McpHttpConfig, type McpServerConfig } from "./config";
import { blockedAddressIn, guardedFetch } from "./network-policy";
import { mcpPolicyProblem } from "./policy";
import { terminateProcessTree } from "./process-tree";
import { scrubToolDefinition, scrubToolResult } from "./result-secrets";
import { mcpSecretValues, redactMcpConfig } from "./secrets";
import { childEnvironment } from "./stdio-policy";

/** What went wrong, so a sources page can say more than "failed". */
export type McpFailure = "config" | "spawn" | "timeout" | "connection" | "protocol" | "cancelled";

export class McpSourceError extends ToolshedError {
  constructor(
    readonly failure: McpFailure,
    readonly server: string,
    message: string,
  ) {
    super(failure === "config" ? "bad_request" : "upstream_failed", message);
    this.name = "McpSourceError";
  }
}

interface McpServerInfo {
  name: string;
  version: string;
  title?: string;
}

export interface McpServerListing {
  serverInfo: McpServerInfo | undefined;
  tools: McpToolDraft[];
  /** Tools the server lists that could not be adapted; the others are still in `tools`. */
  problems: McpToolProblem[];
}

export interface McpToolResult {
  content: ContentBlock[];
  /** True when the tool itself reports failure: the model should see the content and adapt. */
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

/** A server's report of how far a call has come (MCP `notifications/progress`). */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface McpCallOptions {
  /** Gives the call up: the server is told to cancel it (`notifications/cancelled`), and nothing else on the connection is touched. */
  signal?: AbortSignal;
  /** Hears the server's progress notifications for the call, as they come. */
  onProgress?: (progress: McpProgress) => void;
  /** The client the call is made for, when it answers the server's requests itself (see client-capabilities.ts). */
  caller?: CallerOfCall;
}

/** What every request to a server is sent with: its SDK timeout, and the signal that cancels it. */
export interface RequestOptions {
  timeout: number;
  signal: AbortSignal;
}

const CLIENT_INFO = { name: "toolshed", version: "0.1.0" };
// A server that pages forever, or lists an absurd number of tools, is treated as broken.
const MAX_PAGES = 500;
const MAX_TOOLS = 10_000;
const STDERR_TAIL_CHARS = 2_000;
/** How long closing may take before the caller moves on; the SDK escalates to SIGKILL after that. */
const CLOSE_WAIT_MS = 1_000;
/** Our deadlines decide and word the error; the SDK's per-request timeout only has to fire later. */
export const sdkTimeout = (ms: number) => ({ timeout: ms + 1_000 });

// Loose on purpose: the SDK's own listTools rejects the whole page when one tool is malformed,
// whereas adaptMcpTools reports that tool and keeps the others.
const ToolsPageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

export function parseConfig(config: McpServerConfig): McpServerConfig {
  const parsed = McpServerConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join(".") || "config";
  const name = typeof config?.name === "string" ? config.name : "?";
  throw new McpSourceError("config", name, `Invalid MCP server configuration: ${issue.message} (${field})`);
}

export interface Connection {
  client: Client;
  transport: StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport;
  stderrTail: () => string;
}

/**
 * Masks, in text about to leave this module (errors, stderr, listings, tool results), every secret
 * of the server's configuration and of Toolshed's own environment, in each of their encodings.
 */
export function secretScrubber(config: McpServerConfig): { scrub: (text: string) => string; longest: number } {
  const values = [...mcpSecretValues(config), ...hostSecretValues()];
  return { scrub: secretMasker(values), longest: longestSecretForm(values) };
}

const decodeUserinfo = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/**
 * Where to send requests and with which headers. fetch refuses URLs with credentials, so a URL's
 * `user:password@` becomes an `Authorization: Basic` header (as curl does), unless the
 * configuration sets an Authorization header itself.
 */
function httpTarget(config: McpHttpConfig): { url: URL; headers: Record<string, string> } {
  const url = new URL(config.url);
  const headers = { ...config.headers };
  if (url.username || url.password) {
    const credentials = `${decodeUserinfo(url.username)}:${decodeUserinfo(url.password)}`;
    url.username = url.password = "";
    if (!Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) {
      headers.Authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
    }
  }
  return { url, headers };
}

/**
 * Opens nothing the operator did not allow: a stdio command outside TOOLSHED_MCP_STDIO_COMMANDS
 * or an HTTP server on a private address is refused here, right before spawning or connecting,
 * whatever the stored configuration says (an older database, a changed allowlist).
 */
export function openTransport(config: McpServerConfig, legacySse = false, authProvider?: OAuthClientProvider): Connection {
  const problem = mcpPolicyProblem(config);
  if (problem) {
    const verb = config.transport === "stdio" ? "start" : "connect to";
    throw new McpSourceError("config", config.name, `Refused to ${verb} the MCP server "${config.name}": ${problem.message}`);
  }
  const client = new Client(CLIENT_INFO);
  if (config.transport === "http") {
    const { url, headers } = httpTarget(config);
    // The same guard for every request: Streamable HTTP's, or a legacy server's event stream and the posts to its endpoint.
    // An OAuth provider (a person's own sign-in at the server) adds its token to each request and refreshes it.
    const options = { requestInit: { headers }, fetch: guardedFetch({ secretHeaders: Object.keys(headers) }), authProvider };
    const transport = legacySse ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
    return { client, transport, stderrTail: () => "" };
  }
  // Piped rather than inherited: a server's logs are kept for error messages, not mixed into ours.
  const transport = new StdioClientTransport({
    command: config.command,
    args: (config.args ?? []).map(argumentValue),
    env: childEnvironment(config, DEFAULT_INHERITED_ENV_VARS),
    stderr: "pipe",
  });
  // The tail ends up in error messages, so secrets are masked. The raw text keeps enough before
  // the tail that a secret reaching into it is masked whole, not cut in half and left readable.
  const { scrub, longest } = secretScrubber(config);
  let raw = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    raw = (raw + chunk.toString("utf8")).slice(-(STDERR_TAIL_CHARS + longest));
  });
  return { client, transport, stderrTail: () => scrub(raw).slice(-STDERR_TAIL_CHARS).trim() };
}

/**
 * Hands the SDK each response one turn of the event loop later than it arrives. The SDK runs a
 * notification's handler a microtask after it arrives but settles a response at once, and forgets
 * a call's progress handler with it: a server's last progress notification, read in the same
 * chunk as its answer, would be dropped. Connected first: the SDK's message handler is in place.
 */
export function answerAfterNotifications({ transport }: Connection): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) setImmediate(() => deliver(message));
    else deliver(message);
  };
}

export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Always runs, and never waits long. After a failure the server's processes get SIGTERM at once,
 * since a hung server would not react to its stdin closing, and SIGKILL if they outlive the
 * wait. After success it closes gracefully: stdin first, or the session's DELETE over HTTP.
 */
export async function close({ client, transport }: Connection, failed: boolean): Promise<void> {
  if (failed && transport instanceof StdioClientTransport && transport.pid !== null) {
    terminateProcessTree(transport.pid, CLOSE_WAIT_MS);
  }
  if (!failed && transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    await Promise.race([transport.terminateSession().catch(() => undefined), pause(CLOSE_WAIT_MS)]);
  }
  await Promise.race([client.close().catch(() => undefined), pause(CLOSE_WAIT_MS)]);
}

function withStderr(message: string, stderrTail: string): string {
  const sentence = message.replace(/\.?$/, ".");
  return stderrTail ? `${sentence} The server wrote to stderr: ${stderrTail}` : sentence;
}

/**
 * Turns whatever the SDK, the OS or fetch threw into a message that says what to check, with
 * every secret masked. An HTTP error's body is never included: only its status and a hint.
 */
export function describeFailure(error: unknown, config: McpServerConfig, stderrTail: string): McpSourceError {
  const described = describe(error, config, stderrTail);
  return new McpSourceError(described.failure, described.server, secretScrubber(config).scrub(described.message));
}

const HTTP_HINTS: Record<number, string> = {
  401: " (check the server's headers, e.g. Authorization)",
  403: " (check the server's headers, e.g. Authorization)",
  404: " (check the URL's path)",
};

function httpHint(status: number): string {
  if (status >= 300 && status < 400) return " (a redirect to another origin is not followed: use the final address)";
  return HTTP_HINTS[status] ?? "";
}

function describe(error: unknown, config: McpServerConfig, stderrTail: string): McpSourceError {
  const server = `MCP server "${config.name}"`;
  if (error instanceof McpSourceError) {
    return new McpSourceError(error.failure, error.server, withStderr(error.message, stderrTail));
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (config.transport === "stdio" && (code === "ENOENT" || code === "EACCES")) {
    const why = code === "ENOENT" ? "was not found (check the command and PATH)" : "is not executable (permission denied)";
    return new McpSourceError("spawn", config.name, `Could not start the ${server}: the command "${config.command}" ${why}.`);
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    const how = config.transport === "stdio" ? "The process exited or closed its output" : "The connection was closed";
    return new McpSourceError("connection", config.name, withStderr(`${how} before the ${server} answered`, stderrTail));
  }
  if (error instanceof StreamableHTTPError) {
    // Its message holds the response body, which is the upstream's to fill: left out.
    const status = error.code ?? -1;
    if (status === -1) return new McpSourceError("protocol", config.name, `The ${server} answered with an unexpected content type.`);
    return new McpSourceError("connection", config.name, `The ${server} answered HTTP ${status}${httpHint(status)}.`);
  }
  const blocked = blockedAddressIn(error);
  if (blocked) return new McpSourceError("config", config.name, `Refused to connect to the ${server}: ${blocked.message}`);
  if (error instanceof TypeError && error.message === "fetch failed") {
    const cause = error.cause as NodeJS.ErrnoException | undefined;
    const url = config.transport === "http" ? redactMcpConfig(config).url : "";
    return new McpSourceError("connection", config.name, `Could not reach the ${server} at ${url}: ${cause?.code ?? cause?.message ?? "fetch failed"}.`);
  }
  if (config.transport === "stdio" && code !== undefined && error instanceof Error && "syscall" in error) {
    return new McpSourceError("spawn", config.name, `Could not start the ${server}: ${error.message}.`);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError) {
    // The SDK prefixes "MCP error <code>: " on each side of the connection; say it once.
    const detail = message.replace(/^(MCP error -?\d+: )+/, "");
    return new McpSourceError("protocol", config.name, withStderr(`The ${server} answered with error ${error.code}: ${detail}`, stderrTail));
  }
  return new McpSourceError("protocol", config.name, withStderr(`The ${server} broke the protocol: ${message}`, stderrTail));
}

/**
 * Lists a connected server's tools, following `nextCursor`, and adapts them to the unified format.
 * Their prose is scrubbed of the server's secrets first: definitions are stored and shown to every
 * reader of the catalog (ToolSearch, tool lists), and a server may echo what it was sent.
 */
export async function listToolsOn(client: Client, config: McpServerConfig, requestOptions: RequestOptions): Promise<McpServerListing> {
  const { scrub } = secretScrubber(config);
  const serverVersion = scrubJson(client.getServerVersion(), scrub);
  const serverInfo = serverVersion && {
    name: serverVersion.name,
    version: serverVersion.version,
    ...(serverVersion.title ? { title: serverVersion.title } : {}),
  };
  if (!client.getServerCapabilities()?.tools) return { serverInfo, tools: [], problems: [] };

  const listed: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, ToolsPageSchema, requestOptions);
    listed.push(...result.tools);
    if (result.nextCursor === undefined) break;
    if (cursors.has(result.nextCursor)) throw new Error(`tools/list returned the page cursor "${result.nextCursor}" twice`);
    if (page >= MAX_PAGES || listed.length >= MAX_TOOLS) {
      throw new Error(`tools/list goes on beyond ${MAX_PAGES} pages or ${MAX_TOOLS} tools`);
    }
    cursors.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  return {
    serverInfo,
    ...adaptMcpTools(
      config.name,
      listed.map((tool) => scrubToolDefinition(tool, scrub)),
    ),
  };
}

/**
 * Calls one tool on a connected server: the one way every live call goes (gateway, playground), so
 * its result, error results included, and its progress messages are scrubbed of the server's
 * secrets here, before anyone reads or stores them; a failure is scrubbed by `describeFailure`.
 */
export async function callToolOn(
  client: Client,
  config: McpServerConfig,
  mcpName: string,
  args: Record<string, unknown>,
  requestOptions: RequestOptions,
  onProgress?: (progress: McpProgress) => void,
): Promise<McpToolResult> {
  const { scrub } = secretScrubber(config);
  const onprogress =
    onProgress &&
    (({ progress, total, message }: McpProgress) =>
      onProgress({ progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message: scrub(message) }) }));
  const result = (await client.callTool({ name: mcpName, arguments: args }, undefined, {
    ...requestOptions,
    ...(onprogress ? { onprogress } : {}),
  })) as CallToolResult;
  const answer: McpToolResult = {
    content: result.content,
    isError: result.isError === true,
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
  };
  return scrubToolResult(answer, scrub);
}
