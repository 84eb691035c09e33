import "server-only";
import { ToolshedError } from "../../errors";
import type { McpServerConfig } from "./config";
import {
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
  type McpServerListing,
  type McpToolResult,
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
}

/** A cold `npx -y <server>` downloads its package before it answers: 17 s was seen, so a minute. */
const DEFAULT_TIMEOUTS: McpConnectionTimeouts = { connectTimeoutMs: 60_000, listTimeoutMs: 10_000, callTimeoutMs: 60_000 };

/** How long a tool call may take on its server before it fails as a timeout. */
export const MCP_CALL_TIMEOUT_ENV = "TOOLSHED_MCP_CALL_TIMEOUT_MS";

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

/**
 * Long-lived connections to MCP servers, one per key (e.g. `catalog/server`), as an agent host
 * keeps them: a stdio server runs as long as it is connected. When a connection drops without
 * being asked to (the process died, the HTTP server went away), `onLost` is told at once, so the
 * registry can take the server's tools out of "registered" without waiting for the next sync.
 * `onOpening` is told each time a connection starts to be opened, with what it waits for.
 */
export class McpConnections {
  private readonly live = new Map<string, Live>();
  private readonly opening = new Map<string, Attempt>();
  private readonly timeouts: McpConnectionTimeouts;

  constructor(
    private readonly onLost: (key: string, reason: string) => void,
    timeouts: Partial<McpConnectionTimeouts> = {},
    private readonly onOpening: (key: string, opening: McpOpening) => void = () => {},
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
  async list(key: string, rawConfig: McpServerConfig): Promise<McpServerListing> {
    const { connection, config } = await this.connect(key, rawConfig);
    return this.run(key, config, connection, this.timeouts.listTimeoutMs, "list its tools", (requestOptions) =>
      listToolsOn(connection.client, config, requestOptions),
    );
  }

  async call(key: string, rawConfig: McpServerConfig, mcpName: string, args: Record<string, unknown>): Promise<McpToolResult> {
    const { connection, config } = await this.connect(key, rawConfig);
    return this.run(key, config, connection, this.timeouts.callTimeoutMs, `answer the call to ${mcpName}`, (requestOptions) =>
      callToolOn(connection.client, config, mcpName, args, requestOptions),
    );
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
    this.onOpening(key, opening);
    const settled = () => {
      if (this.opening.get(key) === attempt) this.opening.delete(key);
    };
    attempt.promise.then(settled, settled);
    return { connection: await attempt.promise, config };
  }

  private async open(key: string, config: McpServerConfig, fingerprint: string, cancel: Attempt["cancel"]): Promise<Connection> {
    // Another configuration's connection (the server was edited) goes first.
    await this.closeLive(key);
    const connection = openTransport(config);
    const entry: Live = { connection, fingerprint, closing: false };
    try {
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
    } catch (error) {
      await close(connection, true);
      throw describeFailure(error, config, connection.stderrTail());
    }
    if (cancel.requested) {
      await close(connection, false);
      throw new McpSourceError("connection", config.name, `The connection to the MCP server "${config.name}" was closed while it was being opened.`);
    }
    connection.client.onclose = () => {
      if (entry.closing || this.live.get(key) !== entry) return;
      this.live.delete(key);
      const tail = connection.stderrTail();
      const how = config.transport === "stdio" ? "the server process exited" : "the connection closed";
      this.onLost(key, `Disconnected: ${how}.${tail ? ` The server wrote to stderr: ${tail}` : ""}`);
    };
    this.live.set(key, entry);
    return connection;
  }

  /** Runs a request within its deadline; a failure closes the connection so the next use starts afresh. */
  private async run<T>(
    key: string,
    config: McpServerConfig,
    connection: Connection,
    timeoutMs: number,
    label: string,
    work: (requestOptions: { timeout: number }) => Promise<T>,
  ): Promise<T> {
    try {
      return await withDeadline(
        work(sdkTimeout(timeoutMs)),
        timeoutMs,
        () => new McpSourceError("timeout", config.name, `The MCP server "${config.name}" did not ${label} within ${timeoutMs} ms`),
      );
    } catch (error) {
      const entry = this.live.get(key);
      if (entry?.connection === connection) {
        entry.closing = true;
        this.live.delete(key);
      }
      await close(connection, true);
      throw describeFailure(error, config, connection.stderrTail());
    }
  }
}
