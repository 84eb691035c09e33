import { createHash } from "node:crypto";
import { InitializeRequestSchema, isJSONRPCErrorResponse, isJSONRPCResultResponse } from "@modelcontextprotocol/sdk/types.js";
import type { GatewayScope } from "../auth/oauth";
import { TOOL_SEARCH_NAME } from "../selection/tool-search-definition";

/**
 * What the MCP gateway reads of a request body before the SDK's transport does: whether it opens
 * a session (and what the client said of itself), or only carries the client's answers to
 * requests the gateway sent it (elicitations), which the instance waiting for them must get.
 */

const messagesOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

/** The initialize request's params, when the body is one valid initialize request; undefined when it is none; an error text when it is a broken one. */
export function initializeParams(body: unknown): { hello?: InitializeHello; problem?: string } {
  const messages = messagesOf(body);
  const initialize = messages.find((message) => (message as { method?: unknown } | null)?.method === "initialize");
  if (initialize === undefined) return {};
  const parsed = InitializeRequestSchema.safeParse(initialize);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `Invalid initialize request: ${issue.message} (${issue.path.join(".") || "params"})` };
  }
  const { protocolVersion, capabilities, clientInfo } = parsed.data.params;
  return { hello: { protocolVersion, capabilities, clientInfo } };
}

export interface InitializeHello {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string } & Record<string, unknown>;
}

/** Whether every message of the body is a response (a result or an error), and there is at least one. */
export function onlyAnswers(body: unknown): body is Record<string, unknown>[] | Record<string, unknown> {
  const messages = messagesOf(body);
  return messages.length > 0 && messages.every((message) => isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message));
}

export const answersOf = (body: Record<string, unknown>[] | Record<string, unknown>): Record<string, unknown>[] =>
  messagesOf(body) as Record<string, unknown>[];

/** A digest of a tool list as a client receives it: when it changes, the client is told. */
export function toolListFingerprint(tools: readonly unknown[]): string {
  return createHash("sha256").update(JSON.stringify(tools)).digest("base64url");
}

/** Requests that reach the catalog's MCP servers on the caller's behalf, besides tool calls. */
const SERVER_REQUESTS = new Set(["resources/read", "resources/subscribe", "prompts/get"]);

function needsCallScope(message: unknown): boolean {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
  if (method === "tools/call") return params?.name !== TOOL_SEARCH_NAME;
  return typeof method === "string" && SERVER_REQUESTS.has(method);
}

/**
 * The OAuth scope a request body needs (lib/auth/oauth.ts): `tools:call` when any of its messages
 * calls a tool other than ToolSearch (which only searches the catalog) or reaches the catalog's
 * servers; `tools:read` for the rest (initialize, lists, answers, notifications).
 */
export function scopeNeeded(body: unknown): GatewayScope {
  return messagesOf(body).some(needsCallScope) ? "tools:call" : "tools:read";
}
