import "server-only";
import { closeGatewaySessions } from "./mcp-gateway";
import { closeMcpConnections, stopPeriodicSync } from "./sources";

const SIGNALS = ["SIGTERM", "SIGINT"] as const;

/**
 * On SIGTERM or SIGINT, ends what would keep the server from stopping, then lets it stop. Next's
 * own handler (`next start`) closes its HTTP server, which waits for every response to end, and an
 * MCP client's GET stream never ends by itself: so the periodic tasks stop (giving up their leases
 * to another instance), the MCP connections close (stdio servers exit), and then the gateway's
 * sessions end, which closes their streams. Where no other handler of the signal is left (a server
 * without Next's), the signal is raised again once that is done, so the process ends as it would have.
 */
export function shutDownOnSignals(stopDecisionCleanup: () => void): void {
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      void shutDown(stopDecisionCleanup).finally(() => {
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    });
  }
}

async function shutDown(stopDecisionCleanup: () => void): Promise<void> {
  try {
    stopPeriodicSync();
    stopDecisionCleanup();
    await closeMcpConnections();
  } catch (error) {
    console.error("Shutting down: closing the MCP connections failed:", error);
  }
  closeGatewaySessions();
}
