/**
 * A process whose only SIGTERM/SIGINT handler is the server's shutdown (app/_services/shutdown.ts),
 * without Next's: it must still end on the signal. Prints "ready" once the handler is installed.
 */
import { register as registerHooks } from "node:module";

// As tests/support/toolshed-instance.ts: the server's modules outside Next's bundles.
registerHooks("./server-only-hooks.mjs", import.meta.url);
const { shutDownOnSignals } = await import("../../app/_services/shutdown");
shutDownOnSignals(() => {});
// Keeps the process alive until a signal ends it.
setInterval(() => {}, 60_000);
process.stdout.write("ready\n");
