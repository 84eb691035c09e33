/**
 * What a server's first start waits for, in words for the operator: shared by the server (its
 * status and log while a connection is opened) and the Sources page (while a server is added), so
 * no "server-only" here.
 */

/** How long a server may take to start and complete the MCP handshake. */
export const MCP_CONNECT_TIMEOUT_ENV = "TOOLSHED_MCP_CONNECT_TIMEOUT_MS";

/** What the message needs of a server's configuration. */
type OpenedServer = { name: string } & ({ transport: "stdio"; command: string } | { transport: "http" });

/**
 * What opening a server's connection waits for, and how long it may: a first start can take long
 * (a cold `npx -y` downloads its package first), and until the handshake the server lists nothing.
 */
export function openingMessage(config: OpenedServer, connectTimeoutMs: number): string {
  const limit = `(up to ${connectTimeoutMs / 1000} s, ${MCP_CONNECT_TIMEOUT_ENV})`;
  if (config.transport !== "stdio") return `Waiting for the MCP server "${config.name}" to answer the MCP handshake ${limit}.`;
  const npx = /(^|[/\\])npx(\.cmd)?$/.test(config.command);
  return `Waiting for the MCP server "${config.name}" to start and answer the MCP handshake ${limit}${npx ? "; a first `npx -y` run downloads its package first" : ""}.`;
}
