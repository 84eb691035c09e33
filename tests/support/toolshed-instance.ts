/**
 * One Toolshed instance in a process of its own, for tests that run several on one database: it
 * starts what the server starts (instrumentation.ts: accounts, the MCP sync and its periodic
 * round, the decision-log retention), then answers the API over HTTP (toolshed-http-server.ts).
 * Its database is TOOLSHED_DATABASE_URL's (or TOOLSHED_DB's). Prints "listening <url>" once it
 * answers; stops when its stdin closes, and on SIGTERM as `next start` does: it stops listening
 * and exits once every response has ended.
 *
 *   node --import tsx tests/support/toolshed-instance.ts
 *
 * Not under React's server condition (SERVER_TSX_ARGS): the route handlers import Next's modules,
 * which need React's ordinary build outside Next's bundles, as in vitest.
 */
import { register as registerHooks } from "node:module";

registerHooks("./server-only-hooks.mjs", import.meta.url);
// It ends with whoever started it (the pipe closes), also while still starting.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
const { register } = await import("../../instrumentation");
const { startToolshedHttpServer } = await import("./toolshed-http-server");

// register() starts only on Next's Node.js runtime; afterwards the import worker starts from its
// TypeScript source, as unbundled code does (db/import-runner.ts), not from Next's worker chunk.
process.env.NEXT_RUNTIME = "nodejs";
await register();
delete process.env.NEXT_RUNTIME;
const server = await startToolshedHttpServer();
// Beside register()'s own handler (app/_services/shutdown.ts), and for good (not once), as Next's is.
process.on("SIGTERM", () => void server.closeGracefully().then(() => process.exit(143)));
process.stdout.write(`listening ${server.url}\n`);
