import "server-only";
import type { McpServerConfig } from "./config";
import { ALLOW_PRIVATE_ENV, allowsPrivateAddresses, hostRefusal } from "./network-policy";
import { stdioPolicyProblem } from "./stdio-policy";

type Env = Record<string, string | undefined>;

/**
 * Why the operator's policy refuses this server, on which field, or undefined: a stdio command
 * not in TOOLSHED_MCP_STDIO_COMMANDS (or an env variable its line does not name), an
 * HTTP URL whose host is a loopback, private, link-local or reserved IP literal or localhost.
 * Checked when a server is added and again before every connection; host names are also
 * checked after DNS resolution when connecting.
 */
export function mcpPolicyProblem(config: McpServerConfig, env: Env = process.env): { field: string; message: string } | undefined {
  if (config.transport === "stdio") {
    if (config.credentials?.mode !== "per-user-secret") return stdioPolicyProblem(config, env);
    // The variable each person's secret goes in must be one the operator allows too: checked when the server is added, not when someone connects.
    const personal = config.credentials.env;
    const problem = stdioPolicyProblem({ ...config, env: { ...config.env, [personal]: "" } }, env);
    return problem?.field === `env.${personal}` ? { ...problem, field: "credentials.env" } : problem;
  }
  const refusal = hostRefusal(new URL(config.url).hostname, env);
  return refusal && { field: "url", message: refusal.message };
}

/**
 * What adding this server does that only an instance admin may, in words that complete "Only an
 * instance admin may …": a stdio server runs a command on the host; an HTTP server, while the
 * operator lets them reach private addresses, may reach the host's own network. Undefined for an
 * HTTP server that can reach only the public internet.
 */
export function instanceAdminPowerOf(config: McpServerConfig, env: Env = process.env): string | undefined {
  if (config.transport === "stdio") return "add stdio MCP servers (they run a command on this host)";
  if (allowsPrivateAddresses(env)) return `add HTTP MCP servers while the operator lets them reach private addresses (${ALLOW_PRIVATE_ENV}=1)`;
  return undefined;
}
