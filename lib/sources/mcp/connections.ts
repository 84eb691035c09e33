import "server-only";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ErrorCode,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolshedError } from "../../errors";
import type { McpServerConfig } from "./config";
import {
  answerAfterNotifications,
  callToolOn,
  close,
  describeFailure,
  listToolsOn,
  McpSourceError,
  openTransport,
  parseConfig,
  sdkTimeout,
  withDeadline,
  type Connection,
  type McpCallOptions,
  type McpServerListing,
  type McpToolResult,
  type RequestOptions,
} from "./client";
import { MCP_CONNECT_TIMEOUT_ENV, openingMessage } from "./opening";

interface Live {
  connection: Connection;
  /** The configuration it was opened with: a changed one means reconnecting. */
  fingerprint: string;
  closing: boolean;
}

/** A connection being opened: every use of the key meanwhile waits for it instead of opening another. */
interface Attempt {
  fingerprint: string;
  promise: Promise<Connection>;
  /** What it waits for, since when (McpConnections.openingOf). */
  opening: McpOpening;
  /** Set by `disconnect` while the handshake runs: the connection is closed as soon as it is open. */
  cancel: { requested: boolean };
}

/** A connection being opened: since when, and what it waits for, in words for the operator. */
export interface McpOpening {
  since: Date;
  message: string;
}

export interface McpConnectionTimeouts {
  connectTimeoutMs: number;
  listTimeoutMs: number;
  callTimeoutMs: number;
  /** After a request timed out: how long the server has to answer a ping before it counts as wedged and is restarted. */
  pingTimeoutMs: number;
}

/** A cold `npx -y <server>` downloads its package before it answers: 17 s was seen, so a minute. */
const DEFAULT_TIMEOUTS: McpConnectionTimeouts = { connectTimeoutMs: 60_000, listTimeoutMs: 10_000, callTimeoutMs: 60_000, pingTimeoutMs: 5_000 };

/** How long a tool call may take on its server before it fails as a timeout. */
const MCP_CALL_TIMEOUT_ENV = "TOOLSHED_MCP_CALL_TIMEOUT_MS";

type Env = Record<string, string | undefined>;

function millisecondsFromEnv(variable: string, fallback: number, env: Env): number {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (Number.isInteger(value) && value > 0) return value;
  throw new ToolshedError("bad_request", `${variable}="${raw}" must be a positive whole number of milliseconds.`, variable);
}

export const mcpCallTimeoutMs = (env: Env = process.env) => millisecondsFromEnv(MCP_CALL_TIMEOUT_ENV, DEFAULT_TIMEOUTS.callTimeoutMs, env);
export const mcpConnectTimeoutMs = (env: Env = process.env) => millisecondsFromEnv(MCP_CONNECT_TIMEOUT_ENV, DEFAULT_TIMEOUTS.connectTimeoutMs, env);

/** What a connection's owner is told besides its loss (see McpConnections). */
export interface McpConnectionEvents {
  onListChanged?: (key: string) => void;
  /** The server's resources or prompts changed, or a subscribed resource was updated (the gateway's federation). */
  onOfferChanged?: (key: string, change: McpOfferChange) => void;
  onOpening?: (key: string, opening: McpOpening) => void;
}

/** Declares the capabilities a key's client offers its server, and installs their handlers, before each handshake. */
export type PrepareClient = (key: string, client: Client, config: McpServerConfig) => void;

/** The OAuth client a key's connection signs its requests with: a person's own at the server, or none. */
export type AuthProviderFor = (key: string, config: McpServerConfig) => OAuthClientProvider | undefined;

/** A request of a server's besides listing tools and calling one, made on its connection (McpConnections.request). */
export type McpRequestWork<T> = (client: Connection["client"], config: McpServerConfig, requestOptions: RequestOptions) => Promise<T>;

export type McpOfferChange = { kind: "resources" } | { kind: "prompts" } | { kind: "updated"; uri: string };

/**
 * Long-lived connections to MCP servers, one per key (e.g. `catalog/server`), as an agent host
 * keeps them: a stdio server runs as long as it is connected, and every caller's requests share
 * it. A request that times out or is given up is cancelled on its own (the server is sent
 * `notifications/cancelled`); the connection is closed only when the server is gone or wedged.
 * When a connection drops without being asked to (the process died, the HTTP server went away),
 * `onLost` is told at once, so the registry can take the server's tools out of "registered"
 * without waiting for the next sync; when a server says its tools changed
 * (`notifications/tools/list_changed`), `onListChanged` is told, so the registry lists them again;
 * `onOpening` is told each time a connection starts to be opened, with what it waits for.
 */
export class McpConnections {
  private readonly live = new Map<string, Live>();
  private readonly opening = new Map<string, Attempt>();
  private readonly timeouts: McpConnectionTimeouts;
  /** The ping each connection is answering after a timeout: concurrent timeouts share one. */
  private readonly pings = new WeakMap<Connection, Promise<boolean>>();
  /** Why a connection was closed as wedged: what its requests still in flight fail with. */
  private readonly wedged = new WeakMap<Connection, McpSourceError>();
  /** HTTP connections whose server forgot their session: every request that fails on one is sent again in a new one. */
  private readonly forgotten = new WeakSet<Connection>();

  constructor(
    private readonly onLost: (key: string, reason: string) => void,
    timeouts: Partial<McpConnectionTimeouts> = {},
    private readonly events: McpConnectionEvents = {},
    private readonly prepareClient: PrepareClient = () => undefined,
    private readonly authProviderFor: AuthProviderFor = () => undefined,
  ) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...timeouts };
  }

  isConnected(key: string): boolean {
    return this.live.has(key);
  }

  /** The key's connection while it is being opened (its server starting, its handshake running). */
  openingOf(key: string): McpOpening | undefined {
    return this.opening.get(key)?.opening;
  }

  /** Lists the server's tools on its connection, connecting (or reconnecting) first if needed. */
  list(key: string, rawConfig: McpServerConfig): Promise<McpServerListing> {
    return this.inSession(key, rawConfig, (connection, config) =>
      this.run(key, config, connection, this.timeouts.listTimeoutMs, "list its tools", undefined, (requestOptions) =>
        listToolsOn(connection.client, config, requestOptions),
      ),
    );
  }

  /** Calls a tool; `options.signal` gives the call up, `options.onProgress` hears the server's progress notifications. */
  call(key: string, rawConfig: McpServerConfig, mcpName: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpToolResult> {
    return this.inSession(key, rawConfig, (connection, config) =>
      this.run(key, config, connection, this.timeouts.callTimeoutMs, `answer the call to ${mcpName}`, options.signal, (requestOptions) =>
        callToolOn(connection.client, config, mcpName, args, requestOptions, options.onProgress),
      ),
    );
  }

  /**
   * Any other request on the key's connection (resources, prompts: lib/sources/mcp/federated.ts),
   * with the same deadlines, cancellation and session renewal as `list` (for "list") and `call`.
   */
  request<T>(
    key: string,
    rawConfig: McpServerConfig,
    kind: "list" | "call",
    label: string,
    signal: AbortSignal | undefined,
    work: McpRequestWork<T>,
  ): Promise<T> {
    const timeoutMs = kind === "list" ? this.timeouts.listTimeoutMs : this.timeouts.callTimeoutMs;
    return this.inSession(key, rawConfig, (connection, config) =>
      this.run(key, config, connection, timeoutMs, label, signal, (requestOptions) => work(connection.client, config, requestOptions)),
    );
  }

  /**
   * Runs a request on the key's connection. An HTTP server that restarted has forgotten the
   * session (it answers 404, or 400 as the SDK's does before an initialize): the request is sent
   * once more in a new session, which it cannot have seen, instead of failing.
   */
  private async inSession<T>(key: string, rawConfig: McpServerConfig, request: (connection: Connection, config: McpServerConfig) => Promise<T>): Promise<T> {
    const { connection, config } = await this.connect(key, rawConfig);
    try {
      return await request(connection, config);
    } catch (error) {
      if (!(error instanceof SessionForgotten)) throw error;
      // A server that cannot give a new session, or refuses it at once, is lost like any other.
      const lostWith = (failure: unknown) => {
        const described = describeFailure(failure, config, "");
        this.onLost(key, `Disconnected: ${described.message}`);
        return described;
      };
      const renewed = await this.connect(key, rawConfig).catch((failure: unknown) => {
        throw lostWith(failure);
      });
      try {
        return await request(renewed.connection, renewed.config);
      } catch (again) {
        throw again instanceof SessionForgotten ? lostWith(again.failure) : again;
      }
    }
  }

  /** Closes a connection on purpose (one still being opened too, once it is open): `onLost` is not told. */
  async disconnect(key: string): Promise<void> {
    const attempt = this.opening.get(key);
    if (attempt) {
      attempt.cancel.requested = true;
      await attempt.promise.catch(() => undefined);
    }
    await this.closeLive(key);
  }

  /** The keys of every connection, open or being opened. */
  keys(): string[] {
    return [...new Set([...this.live.keys(), ...this.opening.keys()])];
  }

  /** Closes every connection (open or being opened) whose key passes `selected`. */
  async disconnectWhere(selected: (key: string) => boolean): Promise<void> {
    await Promise.all(
      this.keys()
        .filter(selected)
        .map((key) => this.disconnect(key)),
    );
  }

  async disconnectAll(): Promise<void> {
    await this.disconnectWhere(() => true);
  }

  private async closeLive(key: string): Promise<void> {
    const entry = this.live.get(key);
    if (!entry) return;
    entry.closing = true;
    this.live.delete(key);
    await close(entry.connection, false);
  }

  /**
   * The key's connection for this configuration. Uses of a key while its connection is being
   * opened share that one attempt (one process, one handshake); a use with another configuration
   * waits for it to settle, then replaces it.
   */
  private async connect(key: string, rawConfig: McpServerConfig): Promise<{ connection: Connection; config: McpServerConfig }> {
    const config = parseConfig(rawConfig);
    const fingerprint = JSON.stringify(config);
    for (;;) {
      const existing = this.live.get(key);
      if (existing && existing.fingerprint === fingerprint) return { connection: existing.connection, config };
      const inFlight = this.opening.get(key);
      if (!inFlight) break;
      if (inFlight.fingerprint === fingerprint) return { connection: await inFlight.promise, config };
      await inFlight.promise.catch(() => undefined);
    }
    // No await between the checks above and registering the attempt: nobody else can start one.
    const cancel = { requested: false };
    const opening = { since: new Date(), message: openingMessage(config, this.timeouts.connectTimeoutMs) };
    const attempt: Attempt = { fingerprint, cancel, opening, promise: this.open(key, config, fingerprint, cancel) };
    this.opening.set(key, attempt);
    this.events.onOpening?.(key, opening);
    const settled = () => {
      if (this.opening.get(key) === attempt) this.opening.delete(key);
    };
    attempt.promise.then(settled, settled);
    return { connection: await attempt.promise, config };
  }

  private async open(key: string, config: McpServerConfig, fingerprint: string, cancel: Attempt["cancel"]): Promise<Connection> {
    // Another configuration's connection (the server was edited) goes first.
    await this.closeLive(key);
    const connection = await this.handshake(key, config, false).catch(async (error: unknown) => {
      // A legacy HTTP+SSE server (the 2024-11-05 transport) refuses Streamable HTTP's POST with a 4xx:
      // as the SDK's backwards-compatible clients do, its event stream is tried at the same URL.
      if (!(config.transport === "http" && error instanceof StreamableHTTPError && LEGACY_REFUSALS.has(error.code ?? 0)))
        throw describeFailure(error, config, "");
      const streamable = describeFailure(error, config, "");
      return this.handshake(key, config, true).catch((legacy: unknown) => {
        const sse = describeFailure(legacy, config, "");
        throw new McpSourceError(sse.failure, config.name, `${streamable.message} Tried as a legacy HTTP+SSE server too: ${sse.message}`);
      });
    });
    const entry: Live = { connection, fingerprint, closing: false };
    if (cancel.requested) {
      await close(connection, false);
      throw new McpSourceError("connection", config.name, `The connection to the MCP server "${config.name}" was closed while it was being opened.`);
    }
    answerAfterNotifications(connection);
    connection.client.onclose = () => {
      if (entry.closing || this.live.get(key) !== entry) return;
      this.live.delete(key);
      const tail = connection.stderrTail();
      const how = config.transport === "stdio" ? "the server process exited" : "the connection closed";
      this.onLost(key, `Disconnected: ${how}.${tail ? ` The server wrote to stderr: ${tail}` : ""}`);
    };
    // Only while this is the key's connection: a replaced or closing one has nothing to say.
    connection.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (!entry.closing && this.live.get(key) === entry) this.events.onListChanged?.(key);
    });
    const offerChanged = (change: McpOfferChange) => {
      if (!entry.closing && this.live.get(key) === entry) this.events.onOfferChanged?.(key, change);
    };
    connection.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => offerChanged({ kind: "resources" }));
    connection.client.setNotificationHandler(PromptListChangedNotificationSchema, () => offerChanged({ kind: "prompts" }));
    connection.client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => offerChanged({ kind: "updated", uri: params.uri }));
    this.live.set(key, entry);
    return connection;
  }

  /** Opens a transport and runs the MCP handshake within its deadline; a failure closes it and says what to check. */
  private async handshake(key: string, config: McpServerConfig, legacySse: boolean): Promise<Connection> {
    const connection = openTransport(config, legacySse, this.authProviderFor(key, config));
    try {
      this.prepareClient(key, connection.client, config);
      await withDeadline(
        connection.client.connect(connection.transport, sdkTimeout(this.timeouts.connectTimeoutMs)),
        this.timeouts.connectTimeoutMs,
        () =>
          new McpSourceError(
            "timeout",
            config.name,
            `The MCP server "${config.name}" did not complete the MCP handshake within ${this.timeouts.connectTimeoutMs} ms (${MCP_CONNECT_TIMEOUT_ENV})`,
          ),
      );
      return connection;
    } catch (error) {
      await close(connection, true);
      // An initialize refused over Streamable HTTP is kept as it is: whether to try the legacy transport depends on its status.
      if (
        error instanceof StreamableHTTPError &&
        connection.transport instanceof StreamableHTTPClientTransport &&
        connection.transport.sessionId === undefined
      ) {
        throw error;
      }
      throw describeFailure(error, config, connection.stderrTail());
    }
  }

  /**
   * Runs one request within its deadline. A timeout, or the caller's signal, cancels that request
   * only; the connection is closed only when the server is gone (an HTTP server that cannot be
   * reached or lost the session) or wedged (see `failed`).
   */
  private async run<T>(
    key: string,
    config: McpServerConfig,
    connection: Connection,
    timeoutMs: number,
    label: string,
    signal: AbortSignal | undefined,
    work: (requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const request = new AbortController();
    let stop: (error: McpSourceError) => void = () => undefined;
    const stopped = new Promise<never>((_, reject) => {
      stop = (error) => {
        // Aborting the request makes the SDK send the server `notifications/cancelled` for it, with this reason.
        request.abort(error.message);
        reject(error);
      };
    });
    const timer = setTimeout(
      () => stop(new McpSourceError("timeout", config.name, `The MCP server "${config.name}" did not ${label} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const givenUp = () => stop(new McpSourceError("cancelled", config.name, `The caller gave up waiting for the MCP server "${config.name}" to ${label}`));
    signal?.addEventListener("abort", givenUp, { once: true });
    try {
      if (signal?.aborted) givenUp();
      return await Promise.race([stopped, work({ ...sdkTimeout(timeoutMs), signal: request.signal })]);
    } catch (error) {
      // A request still in flight on a connection whose session was found gone fails with its closing: it is sent again too.
      if (config.transport === "http" && (this.forgotten.has(connection) || isSessionForgotten(error, connection))) {
        this.forgotten.add(connection);
        this.drop(key, connection);
        throw new SessionForgotten(describeFailure(error, config, ""));
      }
      throw describeFailure(await this.failed(key, config, connection, error), config, connection.stderrTail());
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", givenUp);
    }
  }

  /**
   * What a failed request reports, once the connection was closed if the failure says the server
   * is gone or wedged: after a timeout, a server still connected that answers not even a ping is
   * wedged, and restarted.
   */
  private async failed(key: string, config: McpServerConfig, connection: Connection, error: unknown): Promise<unknown> {
    const timedOut = error instanceof McpSourceError && error.failure === "timeout";
    if (timedOut && this.live.get(key)?.connection === connection && !(await this.answersPing(connection))) {
      this.wedged.set(connection, this.wedged.get(connection) ?? wedgedError(config, this.timeouts.pingTimeoutMs));
    }
    const wedged = this.wedged.get(connection);
    if (wedged) {
      // Started again at once, for the callers still using it: lost only if it does not start.
      if (this.drop(key, connection)) {
        this.connect(key, config).catch((restart: unknown) =>
          this.onLost(key, `${wedged.message}. Restarting it failed: ${describeFailure(restart, config, "").message}`),
        );
      }
      return wedged;
    }
    if (config.transport === "http" && isConnectionLoss(error) && this.drop(key, connection)) {
      this.onLost(key, `Disconnected: ${describeFailure(error, config, "").message}`);
    }
    return error;
  }

  /**
   * Whether a server whose request timed out still answers a ping: a slow tool on a working
   * server does, a wedged server (its process stuck, its HTTP endpoint gone silent) does not. Any
   * answer, an error too, counts.
   */
  private answersPing(connection: Connection): Promise<boolean> {
    let ping = this.pings.get(connection);
    if (!ping) {
      ping = connection.client.ping({ timeout: this.timeouts.pingTimeoutMs }).then(
        () => true,
        (error: unknown) => error instanceof McpError && error.code !== ErrorCode.RequestTimeout && error.code !== ErrorCode.ConnectionClosed,
      );
      const settled = () => this.pings.delete(connection);
      ping.then(settled, settled);
      this.pings.set(connection, ping);
    }
    return ping;
  }

  /** Closes a connection found dead, if it is still the key's; true for the one caller that closed it. */
  private drop(key: string, connection: Connection): boolean {
    const entry = this.live.get(key);
    if (entry?.connection !== connection) return false;
    entry.closing = true;
    this.live.delete(key);
    void close(connection, true);
    return true;
  }
}

function wedgedError(config: McpServerConfig, pingTimeoutMs: number): McpSourceError {
  const restarted = config.transport === "stdio" ? "its process was ended and started again" : "its connection was closed and opened again";
  return new McpSourceError(
    "timeout",
    config.name,
    `The MCP server "${config.name}" stopped answering (not even a ping within ${pingTimeoutMs} ms) and was restarted: ${restarted}, and the calls it had not answered were given up`,
  );
}

/** What a legacy HTTP+SSE server answers Streamable HTTP's initialize POST (its GET-only stream, or no route for a POST). */
const LEGACY_REFUSALS = new Set([400, 404, 405]);

/** A request refused because the HTTP server no longer knows the connection's session (it restarted): `inSession` opens a new one. */
class SessionForgotten extends Error {
  constructor(readonly failure: McpSourceError) {
    super(failure.message);
  }
}

function isSessionForgotten(error: unknown, connection: Connection): boolean {
  const hadSession = connection.transport instanceof StreamableHTTPClientTransport && connection.transport.sessionId !== undefined;
  return hadSession && error instanceof StreamableHTTPError && (error.code === 404 || error.code === 400);
}

/** An HTTP request's failure that says the server is gone: unreachable, failing, or without the session. */
function isConnectionLoss(error: unknown): boolean {
  if (error instanceof TypeError && error.message === "fetch failed") return true;
  return error instanceof StreamableHTTPError && error.code !== undefined && (error.code === 404 || error.code >= 500);
}
