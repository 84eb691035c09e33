import "server-only";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { McpCallOptions, McpToolResult } from "./client";
import { type CallerOfCall, ClientForwarding } from "./client-capabilities";
import type { McpServerConfig } from "./config";
import { type AuthProviderFor, type McpConnectionEvents, McpConnections, type McpConnectionTimeouts } from "./connections";

/**
 * The connections opened for calling clients that answer their servers' requests (see
 * client-capabilities.ts): one per client session and server, keyed `session/serverKey`, opened
 * from the server's stored configuration like the shared one (same policies, same secrets) and
 * closed with the session, or with the server.
 */
export class BridgedConnections {
  private readonly connections: McpConnections;
  private readonly forwarding = new Map<string, ClientForwarding>();

  constructor(
    onLost: (key: string, reason: string) => void,
    timeouts: Partial<McpConnectionTimeouts>,
    events: McpConnectionEvents = {},
    authProviderFor: AuthProviderFor = () => undefined,
  ) {
    this.connections = new McpConnections(
      onLost,
      timeouts,
      events,
      (key: string, client: Client, config: McpServerConfig) => this.forwarding.get(key)?.install(client, config),
      // Keyed `session/serverKey`: the provider is the one of the server's key.
      (key, config) => authProviderFor(key.slice(key.indexOf("/") + 1), config),
    );
  }

  /** Calls a tool on the caller's own connection to the server (`serverKey`, as the shared one is keyed). */
  call(
    serverKey: string,
    config: McpServerConfig,
    mcpName: string,
    args: Record<string, unknown>,
    caller: CallerOfCall,
    options: McpCallOptions = {},
  ): Promise<McpToolResult> {
    const key = `${caller.client.sessionId}/${serverKey}`;
    let forwarding = this.forwarding.get(key);
    if (forwarding) forwarding.client = caller.client;
    else {
      forwarding = new ClientForwarding(caller.client);
      this.forwarding.set(key, forwarding);
    }
    return forwarding.during(caller.requestId, options.signal, () => this.connections.call(key, config, mcpName, args, options));
  }

  /** Whether the session has a connection to the server, open or being opened. */
  has(sessionId: string, serverKey: string): boolean {
    return this.connections.keys().includes(`${sessionId}/${serverKey}`);
  }

  /** The session's client says its roots changed: each of its servers that may ask again is told. */
  async rootsChanged(sessionId: string): Promise<void> {
    await Promise.all([...this.forwarding].filter(([key]) => key.startsWith(`${sessionId}/`)).map(([, forwarding]) => forwarding.rootsChanged()));
  }

  /** Closes the session's connections: it ended. */
  closeSession(sessionId: string): Promise<void> {
    return this.closeWhere((key) => key.startsWith(`${sessionId}/`));
  }

  /** Closes every session's connection to the servers `selected` picks (by their shared key): they were removed. */
  closeServers(selected: (serverKey: string) => boolean): Promise<void> {
    return this.closeWhere((key) => selected(key.slice(key.indexOf("/") + 1)));
  }

  closeAll(): Promise<void> {
    return this.closeWhere(() => true);
  }

  private async closeWhere(selected: (key: string) => boolean): Promise<void> {
    for (const key of [...this.forwarding.keys()]) if (selected(key)) this.forwarding.delete(key);
    await this.connections.disconnectWhere(selected);
  }
}
