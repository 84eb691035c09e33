/**
 * At server start, on the Node.js runtime only (never during the build): set how far the heap may
 * grow between full collections (TOOLSHED_HEAP_GROWING_PERCENT, lib/heap-growth.ts), mark each
 * request with the address it came from, open the database, which `npm run db:migrate` migrated and
 * seeded (one it has not stops the start here, with an error that says to run it), make sure
 * someone can sign in (the operator's admin, or a one-time setup link in the log), then load
 * plugins, skills and agent files, connect the MCP servers, and keep them synced; prune the
 * decision log now and then (those two rounds run once across the instances sharing the database:
 * see app/_services/leases.ts); on PostgreSQL, catch up on the catalogs other instances announce
 * they changed; on SIGTERM or SIGINT, close the MCP gateway's streams and the MCP
 * connections so that the server can stop (app/_services/shutdown.ts), sending the spans still
 * buffered. Traces start first, when OTEL_EXPORTER_OTLP_ENDPOINT asks.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // First of all, while the heap is small: how far it may grow between full collections.
  const { HEAP_GROWING_PERCENT_VARIABLE, heapGrowingPercentFrom, limitHeapGrowth } = await import("./lib/heap-growth");
  limitHeapGrowth(heapGrowingPercentFrom(process.env[HEAP_GROWING_PERCENT_VARIABLE]));
  // Before anything traced: with OTEL_EXPORTER_OTLP_ENDPOINT set, spans go to that collector (nothing starts otherwise).
  const { startTracing } = await import("./lib/observability/otel");
  const tracing = startTracing();
  // First: requests from now on carry their socket's peer address (see lib/auth/peer-address).
  const { installPeerAddressHeader } = await import("./lib/auth/peer-address");
  installPeerAddressHeader();
  const { TRUSTED_PROXIES_VARIABLE, trustedProxiesFrom } = await import("./lib/auth/client-address");
  // An unreadable proxy list stops the start here, naming the variable, rather than every sign-in.
  trustedProxiesFrom(process.env[TRUSTED_PROXIES_VARIABLE]);
  const { assertMigrated, getDb } = await import("./db/client");
  const { DEFAULT_MCP_SYNC_INTERVAL_MS, startPeriodicSync, syncAllSources } = await import("./app/_services/sources");
  const { bootstrapAccounts } = await import("./app/_services/bootstrap");
  const db = getDb();
  await assertMigrated(db);
  // A malformed TOOLSHED_MCP_STDIO_COMMANDS stops the start here, not each stdio server later.
  const { allowedStdioCommands } = await import("./lib/sources/mcp/stdio-policy");
  allowedStdioCommands();
  await bootstrapAccounts(db);
  // Not awaited: a slow MCP server must not hold up start-up; each sync has its own timeouts.
  const { log } = await import("./lib/observability/log");
  void syncAllSources(db).catch((error) => log.error({ err: error }, "Syncing tool sources failed:"));
  // Each instance syncs the servers it cannot reach; the one holding the sync's lease syncs them all.
  startPeriodicSync(db, Number(process.env.TOOLSHED_MCP_SYNC_INTERVAL_MS ?? DEFAULT_MCP_SYNC_INTERVAL_MS));
  // The decision log keeps what TOOLSHED_DECISION_RETENTION_DAYS / _ROWS say, cleaned up hourly by
  // the instance holding the cleanup's lease.
  const { startDecisionCleanup } = await import("./app/_services/retention");
  const stopDecisionCleanup = startDecisionCleanup(db);
  // On PostgreSQL, the other instances' writes are caught up as they are announced, not on the next request.
  const { catchUpOnOthersWrites } = await import("./app/_services/catalog-writes");
  const catchingUp = catchUpOnOthersWrites(db);
  const { shutDownOnSignals } = await import("./app/_services/shutdown");
  shutDownOnSignals(async () => {
    stopDecisionCleanup();
    await catchingUp.stop();
  }, tracing);
}
