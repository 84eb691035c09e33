import "server-only";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ErrorCode,
  type ListRootsRequest,
  ListRootsRequestSchema,
  type ListRootsResult,
  McpError,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { scrubJson } from "../../secrets/scrub";
import { secretScrubber } from "./client";
import type { McpServerConfig } from "./config";

/**
 * MCP's client capabilities (roots, sampling, elicitation) between a server and the client that
 * calls its tools through Toolshed. The registry's shared connection to a server, which lists its
 * tools for everyone, declares all three, so a server that offers some tools only to clients with
 * them (the reference server "everything") shows the catalog every tool; nobody answers there, so
 * roots/list gets no roots and sampling or elicitation is refused. A caller whose client declared
 * any of them gets connections of its own, declaring exactly what it declared (elicitation in form
 * mode only), whose server's requests reach that client and no other (ClientForwarding); a stdio
 * server, which runs on Toolshed's host, is never given the client's roots.
 */

/** What a client declared of the capabilities Toolshed bridges. */
export type BridgedCapabilities = Pick<ClientCapabilities, "roots" | "sampling" | "elicitation">;

/** A request a server sends its client, as Toolshed forwards it. */
export type ClientBoundRequest = CreateMessageRequest | ElicitRequest | ListRootsRequest;
type ClientBoundResult = CreateMessageResult | ElicitResult | ListRootsResult;

/** The client calling a tool, able to answer its server's requests. */
export interface CallingClient {
  /** Its session: the connections opened for it are its own, and close with it. */
  sessionId: string;
  capabilities: BridgedCapabilities;
  /** Sends the client a server's request; `relatedRequestId` is the client's call it serves, when there is one. */
  ask(request: ClientBoundRequest, options: { relatedRequestId?: RequestId; signal: AbortSignal; timeout: number }): Promise<ClientBoundResult>;
}

/** A call made for a calling client: the client, and its own request (`tools/call`) the call serves. */
export interface CallerOfCall {
  client: CallingClient;
  requestId: RequestId;
}

/** What the registry's shared connection declares: every capability, so every tool is listed. */
const LISTING_CAPABILITIES: BridgedCapabilities = { roots: {}, sampling: {}, elicitation: { form: {} } };

/** The capabilities of `declared` Toolshed bridges, or undefined when it declared none of them. */
export function bridgedCapabilities(declared: ClientCapabilities | undefined): BridgedCapabilities | undefined {
  const { roots, sampling, elicitation } = declared ?? {};
  const bridged: BridgedCapabilities = {
    ...(roots ? { roots: roots.listChanged ? { listChanged: true } : {} } : {}),
    ...(sampling ? { sampling: { ...(sampling.context ? { context: {} } : {}), ...(sampling.tools ? { tools: {} } : {}) } } : {}),
    // URL mode would need its completion notifications passed on too: not bridged yet.
    ...(elicitation?.form ? { elicitation: { form: {} } } : {}),
  };
  return Object.keys(bridged).length > 0 ? bridged : undefined;
}

const noCaller = (what: string) =>
  new McpError(
    ErrorCode.InvalidRequest,
    `Toolshed cannot forward ${what}: the client calling this tool did not declare that capability (or no client is calling).`,
  );

/** For the shared connection: every capability declared, no client to answer for it. */
export function declareWithoutClient(_key: string, client: Client): void {
  client.registerCapabilities(LISTING_CAPABILITIES);
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  client.setRequestHandler(CreateMessageRequestSchema, () => {
    throw noCaller("a sampling request");
  });
  client.setRequestHandler(ElicitRequestSchema, () => {
    throw noCaller("an elicitation request");
  });
}

/** A server may not flood its client: so many requests at once, so many per call, each so large. */
const MAX_PENDING = 4;
const MAX_PER_CALL = 16;
const MAX_REQUEST_CHARS = 1_000_000;
/** How long the client may take to answer: a user fills in a form, a model samples, roots are known at once. */
const ANSWER_TIMEOUT_MS: Record<ClientBoundRequest["method"], number> = {
  "elicitation/create": 10 * 60_000,
  "sampling/createMessage": 2 * 60_000,
  "roots/list": 10_000,
};

interface CallInFlight {
  requestId: RequestId;
  /** Aborted when the call ends, or its client gives it up. */
  signal: AbortSignal;
  asked: number;
}

/**
 * Forwards the requests of one server's connection opened for one calling client to that client:
 * sampling and elicitation only while one of the client's calls to that server is in flight (tied
 * to it, and given up with it), roots/list at any time, since servers ask for roots as they start.
 */
export class ClientForwarding {
  private readonly calls: CallInFlight[] = [];
  private pending = 0;
  private connected: Client | undefined;

  constructor(public client: CallingClient) {}

  /** Declares what the client declared on a connection being opened, with handlers that ask it. */
  install(client: Client, config: McpServerConfig): void {
    const { scrub } = secretScrubber(config);
    const { capabilities } = this.client;
    client.registerCapabilities(capabilities);
    this.connected = client;
    const forward = <T extends ClientBoundRequest>(request: T, upstream: AbortSignal) =>
      // What the client reads of the server is scrubbed of the server's secrets, like its results.
      this.forward({ ...request, params: scrubJson(request.params, scrub) } as T, upstream);
    if (capabilities.roots) {
      client.setRequestHandler(ListRootsRequestSchema, (request, extra) =>
        // A client's roots name folders of its own machine; a stdio server runs on Toolshed's host,
        // and some servers (the reference filesystem server) widen their file access to the roots
        // they are given. So a stdio server is told of no roots, as on the shared connection.
        config.transport === "stdio" ? { roots: [] } : (forward(request, extra.signal) as Promise<ListRootsResult>),
      );
    }
    if (capabilities.sampling) {
      client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => forward(request, extra.signal) as Promise<CreateMessageResult>);
    }
    if (capabilities.elicitation) client.setRequestHandler(ElicitRequestSchema, (request, extra) => forward(request, extra.signal) as Promise<ElicitResult>);
  }

  /** Tells the server the client's roots changed, if it declared it would. */
  async rootsChanged(): Promise<void> {
    if (this.client.capabilities.roots?.listChanged) await this.connected?.sendRootsListChanged().catch(() => undefined);
  }

  /** Runs a call of the client's: its server's requests meanwhile are tied to it. */
  async during<T>(requestId: RequestId, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const ended = new AbortController();
    const call: CallInFlight = { requestId, signal: signal ? AbortSignal.any([signal, ended.signal]) : ended.signal, asked: 0 };
    this.calls.push(call);
    try {
      return await work();
    } finally {
      this.calls.splice(this.calls.indexOf(call), 1);
      ended.abort("the call ended");
    }
  }

  private async forward(request: ClientBoundRequest, upstream: AbortSignal): Promise<ClientBoundResult> {
    // The oldest call in flight: any of them is this client's, to this server.
    const call = this.calls[0];
    if (!call && request.method !== "roots/list") {
      throw new McpError(ErrorCode.InvalidRequest, `Toolshed forwards ${request.method} to the client only during a call of one of this server's tools.`);
    }
    if (call && call.asked >= MAX_PER_CALL)
      throw new McpError(ErrorCode.InvalidRequest, `Toolshed forwards at most ${MAX_PER_CALL} requests to the client per call.`);
    if (this.pending >= MAX_PENDING) throw new McpError(ErrorCode.InvalidRequest, `Toolshed forwards at most ${MAX_PENDING} requests to the client at once.`);
    if (JSON.stringify(request.params ?? {}).length > MAX_REQUEST_CHARS) {
      throw new McpError(ErrorCode.InvalidParams, `Toolshed forwards requests of at most ${MAX_REQUEST_CHARS} characters to the client.`);
    }
    if (call) call.asked++;
    this.pending++;
    try {
      return await this.client.ask(request, {
        ...(call ? { relatedRequestId: call.requestId } : {}),
        signal: call ? AbortSignal.any([upstream, call.signal]) : upstream,
        timeout: ANSWER_TIMEOUT_MS[request.method],
      });
    } finally {
      this.pending--;
    }
  }
}
