import "server-only";
import { log } from "@/lib/observability/log";
import { closeGatewaySessions } from "./mcp-gateway";
import { closeMcpConnections, stopPeriodicSync } from "./sources";
import { flushAllUsage } from "./usage";

const SIGNALS = ["SIGTERM", "SIGINT"] as const;

/**
 * On SIGTERM or SIGINT, ends what would keep the server from stopping, then lets it stop. Next's
 * own handler (`next start`) closes its HTTP server, which waits for every response to end, and an
 * MCP client's GET stream never ends by itself: so the periodic tasks stop (giving up their leases
 * to another instance), the MCP connections close (stdio servers exit), and then the gateway's
 * sessions end, which closes their streams. Where no other handler of the signal is left (a server
 * without Next's), the signal is raised again once that is done, so the process ends as it would have.
 */
export function shutDownOnSignals(stopBackgroundWork: () => void | Promise<void>, tracing?: { shutdown(): Promise<void> }): void {
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      // The spans still buffered are sent (and the exporter stopped) while the rest stops.
      void Promise.all([
        shutDown(stopBackgroundWork),
        tracing?.shutdown().catch((error: unknown) => log.warn({ err: error }, "Sending the last spans failed:")),
      ]).finally(() => {
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    });
  }
}

async function shutDown(stopBackgroundWork: () => void | Promise<void>): Promise<void> {
  // The usage counted in the last second: first, before anything else can fail.
  await flushAllUsage();
  try {
    stopPeriodicSync();
    await stopBackgroundWork();
    await closeMcpConnections();
  } catch (error) {
    log.error({ err: error }, "Shutting down: closing the MCP connections failed:");
  }
  closeGatewaySessions();
}
