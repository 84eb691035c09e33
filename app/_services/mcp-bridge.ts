import "server-only";
import { log } from "@/lib/observability/log";
import { BridgedConnections, bridgedCapabilities, type CallingClient, mcpCallTimeoutMs, mcpConnectTimeoutMs } from "@/lib/sources/mcp";
import type { GatewaySession } from "./mcp-gateway";
import { personalOAuthProvider } from "./mcp-personal";

/**
 * MCP client capabilities bridged through the gateway: a session whose client declared roots,
 * sampling or elicitation calls its servers over connections of its own, which forward their
 * servers' requests to that client only (lib/sources/mcp/client-capabilities.ts).
 */

const shared = globalThis as unknown as { toolshedBridgedConnections?: BridgedConnections };

/** This instance's connections opened for gateway sessions: nothing is recorded of them, the shared connection keeps the server's health. */
export function bridgedConnections(): BridgedConnections {
  shared.toolshedBridgedConnections ??= new BridgedConnections(
    (key, reason) => log.info(`MCP ${key} (a gateway session's own connection): ${reason}`),
    { callTimeoutMs: mcpCallTimeoutMs(process.env), connectTimeoutMs: mcpConnectTimeoutMs(process.env) },
    { onOpening: (key, { message }) => log.info(`MCP ${key} (a gateway session's own connection): ${message}`) },
    personalOAuthProvider,
  );
  return shared.toolshedBridgedConnections;
}

/** The session's client as its servers may ask it, when it declared a capability the gateway bridges. */
export function callingClientOf(session: GatewaySession): CallingClient | undefined {
  const capabilities = bridgedCapabilities(session.server.getClientCapabilities());
  if (!capabilities) return undefined;
  return {
    sessionId: session.id,
    capabilities,
    ask: async (request, options) => {
      // The client's answer may reach another instance: this one then reads it from the database.
      session.awaitingAnswers++;
      try {
        if (request.method === "sampling/createMessage") return await session.server.createMessage(request.params, options);
        if (request.method === "elicitation/create") return await session.server.elicitInput(request.params, options);
        return await session.server.listRoots(request.params, options);
      } finally {
        session.awaitingAnswers--;
      }
    },
  };
}
