import { createMCPClient, ElicitationRequestSchema, type MCPClient } from "@ai-sdk/mcp";
import {
  dynamicTool,
  jsonSchema,
  type ModelMessage,
  NoSuchToolError,
  type PrepareStepFunction,
  type ToolCallRepairFunction,
  type ToolExecutionOptions,
  type ToolSet,
  tool,
} from "ai";
import {
  TOOL_SEARCH_DESCRIPTION,
  TOOL_SEARCH_INPUT_SCHEMA,
  TOOL_SEARCH_NAME,
  type ToolDefinitionText,
  toToolSearchAnswer,
  unavailableToolMessage,
} from "./tool-search.js";

export * from "./tool-search.js";

/**
 * Toolshed's HTTP API for an agent: the tool list a model and agent see, preselection before a
 * turn, ToolSearch during one, and the `tools` and `prepareStep` of an AI SDK loop that use them
 * as Toolshed's playground does. Plain `fetch`; the calls of MCP tools go through the catalog's MCP
 * gateway with the AI SDK's MCP client. `ai` and `@ai-sdk/mcp` are peers.
 */

export interface ToolshedOptions {
  /** Where Toolshed answers, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** An API token of the catalog's team (`tsk_…`); read scope is enough for everything here. */
  token: string;
  catalog: string;
  /** Another fetch (a test double, a proxy agent); the global one by default. */
  fetch?: typeof fetch;
}

/** Who asks: the fields every request of a turn carries. */
export interface TurnFields {
  model: string;
  agent: string;
  provider?: string;
  mode?: string;
  flags?: string[];
  /** The selector for preselection and described ToolSearch queries; Toolshed's default when left out. */
  selector?: string;
}

export interface ConversationMessage {
  role: "user" | "assistant" | "system" | "tool";
  content: string;
}

export interface ToolListRequest extends Omit<TurnFields, "selector"> {
  format?: "ai-sdk" | "openai" | "anthropic";
}

export interface ToolListAnswer {
  catalog: string;
  revision: number;
  model: string;
  agent: string;
  provider: string | null;
  mode: string;
  format: "ai-sdk" | "openai" | "anthropic";
  /** The visible tools in the requested format (`ai-sdk`: `{ name, description, inputSchema }`). */
  tools: unknown[];
  annotations: { name: string; source: string; needsApproval: boolean }[];
  trace: { stage: string; removed: unknown[]; changed: unknown[] }[];
  tokens: { total: number };
}

export interface PreselectRequest extends TurnFields {
  messages: ConversationMessage[];
  conversationId?: string;
  /** How many tools preselection chooses at most (Toolshed's default: 8). */
  k?: number;
}

export interface Rejection {
  name: string;
  reason: string;
}

export interface Preselection {
  conversationId: string;
  selected: { name: string; score: number }[];
  /** The turn's tools by origin: the agent's base tools, the preselected, the conversation's history, and ToolSearch. */
  toolSet: { name: string; origin: "base" | "preselected" | "history" | "entry" }[];
  rejected: Rejection[];
  dropped: Rejection[];
  selector: string;
  fallback: { from: string; cause: string } | null;
  decisionId: string;
  revision: number;
  tokens: { toolSet: number; visible: number; candidates: number };
  latencyMs: number;
}

export interface ToolSearchRequest extends TurnFields {
  query: string;
  maxResults?: number;
  conversationId?: string;
  messages?: ConversationMessage[];
}

export interface ToolSearchResult {
  conversationId: string;
  path: "exact" | "semantic";
  tools: ToolDefinitionText[];
  rejected: Rejection[];
  selector: string | null;
  fallback: { from: string; cause: string } | null;
  decisionId: string;
  latencyMs: number;
}

/** What the AI SDK passes a tool's implementation beside its input (the call's id, the messages, an abort signal). */
export type ToolCallOptions = ToolExecutionOptions<Record<string, unknown>>;

/** A tool's implementation: what the model's call does. Tools without one are definitions only, and the loop stops at their call. */
export type ToolImplementation = (input: unknown, options: ToolCallOptions) => unknown;

export interface AiSdkToolsRequest extends TurnFields {
  /** Preselection's k. */
  k?: number;
  /** Continue a conversation Toolshed already knows (its history joins every turn's tool set). */
  conversationId?: string;
  /**
   * Implementations by tool name. ToolSearch is implemented here, by Toolshed, and so is every tool
   * of an MCP server of the catalog: its calls go through the catalog's MCP gateway (the same
   * checks, approvals and decision log as any gateway call) unless given here.
   */
  execute?: Record<string, ToolImplementation>;
  /**
   * Asked before a call of a tool the agent must ask about (an `ask` permission), with the
   * gateway's question; true lets the call through. Without it, such calls are refused.
   */
  approve?: (question: string) => boolean | Promise<boolean>;
}

/** Toolshed's error answer, `{ error: { code, message, field? } }`, with the HTTP status. */
export class ToolshedApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "ToolshedApiError";
  }
}

/** The conversation as preselection reads it: the text of each message (tool calls and files left out). */
export function conversationText(messages: readonly ModelMessage[]): ConversationMessage[] {
  return messages
    .map((message) => {
      const content =
        typeof message.content === "string"
          ? message.content
          : message.content
              .map((part) => (part.type === "text" ? part.text : ""))
              .filter(Boolean)
              .join("\n");
      return { role: message.role, content };
    })
    .filter((message) => message.content.trim() !== "");
}

export function createToolshed(options: ToolshedOptions) {
  const send = options.fetch ?? fetch;
  const catalogUrl = `${options.baseUrl.replace(/\/+$/, "")}/api/catalogs/${encodeURIComponent(options.catalog)}`;

  async function post<T>(path: string, body: unknown): Promise<T> {
    const response = await send(`${catalogUrl}/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => undefined)) as { error?: { code: string; message: string; field?: string } } | undefined;
    if (!response.ok) {
      throw new ToolshedApiError(
        response.status,
        answer?.error?.code ?? "unknown",
        answer?.error?.message ?? `Toolshed answered ${response.status}.`,
        answer?.error?.field,
      );
    }
    return answer as T;
  }

  /** The tools this model and agent may be handed, after every rule, in a provider's format. */
  const toolList = (request: ToolListRequest) => post<ToolListAnswer>("tool-list", request);
  /** The tools a turn needs, chosen before it starts; recorded as a decision in the conversation. */
  const preselect = (request: PreselectRequest) => post<Preselection>("preselect", request);
  /** ToolSearch: tools by exact name (`select:a,b`) or by need, each checked against the registry. */
  const toolSearch = (request: ToolSearchRequest) => post<ToolSearchResult>("tool-search", request);

  /**
   * The tools and `prepareStep` of a `generateText` / `streamText` loop, as Toolshed's playground
   * wires its own: every tool the agent may see is defined (nothing else is), but at each step only
   * the turn's tool set (base tools, preselection, the conversation's history, ToolSearch) and what
   * ToolSearch found are active. The first step of each call preselects from its messages; a tool
   * ToolSearch returns is active from the next step on, for the rest of the conversation.
   */
  const aiSdkTools = (request: AiSdkToolsRequest) =>
    loopTools({ toolList, preselect, toolSearch, gateway: () => connectGateway(options, catalogUrl, request) }, request);

  return { toolList, preselect, toolSearch, aiSdkTools };
}

export type Toolshed = ReturnType<typeof createToolshed>;

/** The requests `aiSdkTools` makes, as `createToolshed` sends them. */
interface LoopApi {
  toolList: (request: ToolListRequest) => Promise<ToolListAnswer>;
  preselect: (request: PreselectRequest) => Promise<Preselection>;
  toolSearch: (request: ToolSearchRequest) => Promise<ToolSearchResult>;
  /** A session of the catalog's MCP gateway for this model and agent, opened on the loop's first MCP call. */
  gateway: () => Promise<MCPClient>;
}

/** The catalog's MCP gateway (`…/mcp?model=&agent=…`) for the loop's model and agent, with the AI SDK's MCP client; approvals answered by `approve`. */
async function connectGateway(options: ToolshedOptions, catalogUrl: string, request: AiSdkToolsRequest): Promise<MCPClient> {
  const query = new URLSearchParams({ model: request.model, agent: request.agent });
  for (const field of ["provider", "mode", "selector"] as const) if (request[field]) query.set(field, request[field]);
  for (const flag of request.flags ?? []) query.append("flags", flag);
  const { approve } = request;
  const client = await createMCPClient({
    transport: {
      type: "http",
      url: `${catalogUrl}/mcp?${query}`,
      headers: { authorization: `Bearer ${options.token}` },
      ...(options.fetch && { fetch: options.fetch }),
    },
    clientName: "@toolshed/client",
    protocolVersionDiscovery: false,
    capabilities: approve ? { elicitation: { form: {} } } : {},
  });
  if (approve) {
    client.onElicitationRequest(ElicitationRequestSchema, async (asked) => ({ action: (await approve(asked.params.message)) ? "accept" : "decline" }));
  }
  return client;
}

async function loopTools({ toolList, preselect, toolSearch, gateway }: LoopApi, request: AiSdkToolsRequest) {
  const { k, execute = {}, conversationId: continued, approve: _approve, ...fields } = request;
  const list = await toolList({
    model: fields.model,
    agent: fields.agent,
    provider: fields.provider,
    mode: fields.mode,
    flags: fields.flags,
    format: "ai-sdk",
  });
  const definitions = list.tools as ToolDefinitionText[];
  const defined = new Set(definitions.map((definition) => definition.name));
  let conversationId = continued;
  let preselection: Preselection | undefined;
  let turnSet: string[] = [];
  const found = new Set<string>();
  const active = () => [...new Set([...turnSet, ...found].filter((name) => defined.has(name))), TOOL_SEARCH_NAME];

  // MCP tools run through the gateway, one session for the loop, opened at its first such call.
  let session: Promise<MCPClient> | undefined;
  const proxied: Record<string, ToolImplementation> = {};
  for (const { name, source } of list.annotations) {
    if (source !== "mcp") continue;
    proxied[name] = async (input, { abortSignal }) => {
      // A session that could not be opened is tried again at the next call, not kept failed.
      session ??= gateway().catch((error: unknown) => {
        session = undefined;
        throw error;
      });
      return (await session).callTool({ name, arguments: input as Record<string, unknown>, options: { signal: abortSignal } });
    };
  }
  const tools = definedTools(definitions, { ...proxied, ...execute }, active);
  tools[TOOL_SEARCH_NAME] = tool({
    description: TOOL_SEARCH_DESCRIPTION,
    inputSchema: jsonSchema<{ query: string; max_results?: number }>(TOOL_SEARCH_INPUT_SCHEMA),
    execute: async ({ query, max_results }) => {
      const result = await toolSearch({ ...fields, conversationId, query, maxResults: max_results });
      conversationId = result.conversationId;
      for (const passed of result.tools) found.add(passed.name);
      return toToolSearchAnswer(result);
    },
  });

  const prepareStep: PrepareStepFunction<ToolSet> = async ({ stepNumber, messages }) => {
    if (stepNumber === 0) {
      preselection = await preselect({ ...fields, k, conversationId, messages: conversationText(messages).slice(-200) });
      conversationId = preselection.conversationId;
      turnSet = preselection.toolSet.filter((entry) => entry.origin !== "entry").map((entry) => entry.name);
    }
    return { activeTools: active() };
  };

  /** A call to a tool that is not active becomes a tool error the model reads: the same text whether the tool exists or not. */
  const repairToolCall: ToolCallRepairFunction<ToolSet> = async ({ toolCall, error }) => {
    if (NoSuchToolError.isInstance(error)) error.message = unavailableToolMessage(toolCall.toolName);
    return null;
  };

  return {
    tools,
    prepareStep,
    repairToolCall,
    /** Names active at the next step. */
    activeTools: active,
    /** The conversation Toolshed records this loop's decisions in, once the first step has run. */
    conversationId: () => conversationId,
    /** The latest turn's preselection. */
    preselection: () => preselection,
    /** Ends the loop's gateway session, if an MCP tool was called. */
    close: async () => {
      if (session !== undefined) await (await session).close();
    },
  };
}

/** Every tool the agent may see, defined; those given an implementation run it only while active. */
function definedTools(definitions: ToolDefinitionText[], execute: Record<string, ToolImplementation>, active: () => string[]): ToolSet {
  const tools: ToolSet = {};
  for (const definition of definitions) {
    const implementation = execute[definition.name];
    tools[definition.name] = dynamicTool({
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema),
      ...(implementation
        ? {
            execute: async (input: unknown, options: ToolCallOptions) =>
              // The SDK already refuses calls to inactive tools; this keeps that true for direct callers.
              active().includes(definition.name) ? implementation(input, options) : { error: unavailableToolMessage(definition.name) },
          }
        : {}),
    });
  }
  return tools;
}
