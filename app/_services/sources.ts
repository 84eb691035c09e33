import "server-only";
import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import { deleteCatalog, listCatalogs } from "@/db/queries/catalogs";
import {
  allMcpServerNames,
  checkNewMcpServer,
  createMcpServer,
  deleteMcpServer,
  getMcpServerConfig,
  type McpServerView,
  recordMcpHealth,
  recordMcpStarting,
  scrubMcpServerText,
} from "@/db/queries/mcp-servers";
import { deletePromptApprovals } from "@/db/queries/prompt-approvals";
import { deleteSourceTools, syncSourceTools } from "@/db/queries/source-tools";
import type { SourceSyncResult, SourceToolDraft } from "@/lib/sources/sync-plan";
import { actorOf, requireInstanceAdmin, SYNC_ACTOR, type Principal } from "@/lib/auth/policy";
import { ToolshedError } from "@/lib/errors";
import { log } from "@/lib/observability/log";
import { forgetMcpServer, recordMcpServerUp, recordToolCall, type ToolCallOutcome } from "@/lib/observability/metrics";
import { inSpan } from "@/lib/observability/tracing";
import {
  instanceAdminPowerOf,
  mcpCallTimeoutMs,
  mcpConnectTimeoutMs,
  type McpCallOptions,
  McpConnections,
  declareWithoutClient,
  type McpOfferChange,
  type McpRequestWork,
  type McpOpening,
  McpSourceError,
  type McpServerConfig,
  type McpServerListing,
  type McpToolResult,
} from "@/lib/sources/mcp";
import { scrubSecrets } from "@/lib/secrets";
import { isPerUser } from "@/lib/sources/mcp/config";
import { personalKey } from "@/lib/sources/mcp/user-credentials";
import { giveUpLease, runsThisRound } from "./leases";
import { reloadLocalSources, syncLocalSources } from "./local-sources";
import { bridgedConnections } from "./mcp-bridge";
import { callTargetOf, listingSecretsOf, listingTargetOf, nobodyConnectedYet, personalOAuthProvider } from "./mcp-personal";
import { callFailure } from "./usage";

type McpSyncResult = SourceSyncResult & { error?: string };

interface SourcesState {
  pool?: McpConnections;
  /** The periodic round's timer, and the round running now, if one is. */
  periodic?: { timer: NodeJS.Timeout; db: Db; round?: Promise<unknown> };
  /** The sync of each server (by `catalog/server`) that is running or queued last: syncs of one server never overlap. */
  syncs?: Map<string, Promise<McpSyncResult>>;
  /**
   * The servers (by `catalog/server`) this instance cannot reach now: its own knowledge, never
   * stored, since another instance may reach them. Their tools are left out of what this instance
   * answers (see catalogState) until a sync of the server succeeds here.
   */
  unreachable?: Set<string>;
  /**
   * The servers (by `catalog/server`) that said their tools changed and whose sync for it has not
   * started yet: further notifications meanwhile are covered by it (see listChanged).
   */
  listChanges?: Set<string>;
  /** The health write of each server (by `catalog/server`) queued last: they land in the order they happened (see inOrder). */
  healthWrites?: Map<string, Promise<void>>;
  /** Who hears that a server's resources or prompts changed (the gateway's federation, mcp-federation.ts). */
  offerChanged?: (catalogId: string, server: string, change: McpOfferChange) => void;
}

const shared = globalThis as unknown as { toolshedSources?: SourcesState };
shared.toolshedSources ??= {};
const state = shared.toolshedSources;
state.unreachable ??= new Set();
const unreachable = state.unreachable;

const keyOf = (catalogId: string, server: string) => `${catalogId}/${server}`;
/** The server's key of any of its connections: the shared one (`catalog/server`) or a person's own (`catalog/server/person`). */
const serverKeyOf = (key: string) => key.split("/").slice(0, 2).join("/");
/** Whether a connection's key is one of the server's: its shared one, or a person's own. */
const isKeyOfServer = (key: string, catalogId: string, server: string) => serverKeyOf(key) === keyOf(catalogId, server);

/**
 * The process-wide MCP connections; a server that dies is unreachable for this instance at once,
 * and one that says its tools changed is synced at once (listChanged). Each connection being
 * opened says in the log what it waits for (a first start may take a while), and in the server's
 * health history.
 */
function pool(): McpConnections {
  state.pool ??= new McpConnections(
    (key, reason) => {
      // A person's own connection lost says nothing of the server for anyone else.
      if (key !== serverKeyOf(key)) return log.info(`MCP ${key} (a person's own connection): ${reason}`);
      const [catalogId, server] = key.split("/");
      offerGone(catalogId, server);
      void markServerDown(getDb(), catalogId, server, reason);
    },
    { callTimeoutMs: mcpCallTimeoutMs(process.env), connectTimeoutMs: mcpConnectTimeoutMs(process.env) },
    {
      onListChanged: listChanged,
      onOpening: opening,
      onOfferChanged: (key, change) => {
        const [catalogId, server] = key.split("/");
        state.offerChanged?.(catalogId, server, change);
      },
    },
    declareWithoutClient,
    personalOAuthProvider,
  );
  return state.pool;
}

function opening(key: string, { message }: McpOpening): void {
  log.info(`MCP ${key}: ${message}`);
  // A person's own connection opening is theirs: the server's health history is about the server.
  if (key !== serverKeyOf(key)) return;
  const [catalogId, server] = key.split("/");
  inOrder(key, () => recordMcpStarting(getDb(), catalogId, server, message)).catch((error: unknown) =>
    log.warn({ err: error }, `Could not record MCP server ${key} starting:`),
  );
}

/** How long after a server's first `tools/list_changed` its sync starts: a server changing several tools sends a burst. */
export const LIST_CHANGED_SYNC_DELAY_MS = 200;

/**
 * A server said its tools changed: it is synced shortly (definition pinning applies as at any
 * sync: a changed definition is held back), rather than at the next periodic round. Notifications
 * that come before that sync starts listing add nothing; one that comes once it has started gets
 * a sync of its own, queued after it (syncs of one server never overlap).
 */
function listChanged(connectionKey: string): void {
  // Told on a person's own connection too (the one that lists a per-person server): the server's sync all the same.
  const key = serverKeyOf(connectionKey);
  state.listChanges ??= new Set();
  const waiting = state.listChanges;
  if (waiting.has(key)) return;
  waiting.add(key);
  const [catalogId, server] = key.split("/");
  const sync = () => {
    waiting.delete(key);
    return syncNow(getDb(), catalogId, server);
  };
  setTimeout(() => {
    afterPreviousSync(key, sync)
      .catch(passOverDeleted)
      .catch((error: unknown) => log.warn({ err: error }, `MCP sync of ${key} after it said its tools changed failed:`));
  }, LIST_CHANGED_SYNC_DELAY_MS).unref();
}

/**
 * A server as this instance answers with it: "starting" while this instance opens its connection
 * (its first start, or again after it was lost or edited), saying what that waits for and since when.
 */
export function withOpeningStatus(catalogId: string, view: McpServerView): McpServerView {
  const opening = state.pool?.openingOf(keyOf(catalogId, view.name));
  if (!opening) return view;
  return { ...view, status: "starting", starting: { since: opening.since.toISOString(), message: opening.message } };
}

/**
 * Runs a write of the server's health once the one queued before it has settled: a connection's
 * "starting" is recorded without being awaited, and must not land after the "connected" that followed it.
 */
function inOrder(key: string, write: () => Promise<void>): Promise<void> {
  state.healthWrites ??= new Map();
  const writes = state.healthWrites;
  const run = (writes.get(key) ?? Promise.resolve()).then(write, write);
  writes.set(key, run);
  const done = () => {
    if (writes.get(key) === run) writes.delete(key);
  };
  run.then(done, done);
  return run;
}

/**
 * Takes the server's tools out of what this instance answers, at once and in its memory only (the
 * registry and its revision stay as they are: another instance may reach the server), and records
 * why as the server's health for the Sources page (scrubbed of its secrets; no revision).
 */
async function markServerDown(db: Db, catalogId: string, server: string, reason: string): Promise<void> {
  unreachable.add(keyOf(catalogId, server));
  recordMcpServerUp(catalogId, server, false);
  try {
    await inOrder(keyOf(catalogId, server), () => recordMcpHealth(db, catalogId, server, { status: "error", lastError: reason }));
  } catch (error) {
    log.warn({ err: error }, `Could not record MCP server ${catalogId}/${server} down:`);
  }
}

/** The server answered this instance (a sync listed its tools): its tools are served again. */
function markServerUp(catalogId: string, server: string): void {
  unreachable.delete(keyOf(catalogId, server));
  recordMcpServerUp(catalogId, server, true);
}

const isNotFound = (error: unknown) => error instanceof ToolshedError && error.code === "not_found";

/**
 * Connects if needed, lists the server's tools into the registry and records its health. Syncs
 * of one server run one after another: a sync asked for while another runs waits for it (it may
 * be about a configuration changed meanwhile). A server or catalog that no longer exists is a
 * not-found error, and its connection is closed; any other failure is recorded and returned.
 */
export function syncMcpServer(db: Db, catalogId: string, name: string): Promise<McpSyncResult> {
  return afterPreviousSync(keyOf(catalogId, name), () => syncNow(db, catalogId, name));
}

/**
 * Adds a server and syncs it as one change, one revision: it is checked (who adds it: a stdio
 * server, or any server while private addresses are allowed, needs an instance admin; then
 * policy, name; nothing is started for a refused one), connected and listed, outside any
 * transaction since that is the network, then stored with the tools it listed in one transaction.
 * A server that cannot be reached is still added, with its error. Runs as a sync of that server:
 * never beside another. The caller has checked that `principal` is an admin of the catalog's team.
 */
export async function addMcpServer(db: Db, catalogId: string, config: McpServerConfig, principal: Principal): Promise<McpSyncResult> {
  const power = instanceAdminPowerOf(config);
  if (power) requireInstanceAdmin(principal, power);
  return afterPreviousSync(keyOf(catalogId, config.name), () => addNow(db, catalogId, config, actorOf(principal)));
}

/** Runs `work` once the server's sync (or addition) running or queued last has settled: those of one server never overlap. */
function afterPreviousSync(key: string, work: () => Promise<McpSyncResult>): Promise<McpSyncResult> {
  state.syncs ??= new Map();
  const syncs = state.syncs;
  const previous = syncs.get(key);
  const run = (previous ?? Promise.resolve()).then(settledOk, settledOk).then(work);
  syncs.set(key, run);
  const done = () => {
    if (syncs.get(key) === run) syncs.delete(key);
  };
  run.then(done, done);
  return run;
}

const settledOk = () => undefined;

/** Whether a sync of this server is running (or queued) now. */
export function isMcpServerSyncing(catalogId: string, name: string): boolean {
  return state.syncs?.has(keyOf(catalogId, name)) ?? false;
}

async function syncNow(db: Db, catalogId: string, name: string): Promise<McpSyncResult> {
  let perUser = false;
  try {
    const config = await getMcpServerConfig(db, catalogId, name);
    perUser = isPerUser(config);
    const target = await listingTargetOf(db, keyOf(catalogId, name), catalogId, config);
    if ("error" in target) throw new McpSourceError("connection", name, target.error);
    const listing = await pool().list(target.key, target.config);
    const result = await syncSourceTools(
      db,
      catalogId,
      [{ source: "mcp", sourceRef: name, drafts: toolDrafts(listing), mediumFindings: config.mediumFindings }],
      SYNC_ACTOR,
    );
    markServerUp(catalogId, name);
    await inOrder(keyOf(catalogId, name), () => recordMcpHealth(db, catalogId, name, connectedHealth(listing, result)));
    return result;
  } catch (error) {
    if (isNotFound(error)) {
      // Deleted meanwhile (the server, or its catalog): its process must not outlive it.
      await disconnectMcpServer(catalogId, name);
      throw error;
    }
    // A per-person server is listed with one person's credential, which its health, read by everyone, must not show.
    const said = scrubSecrets(error instanceof Error ? error.message : String(error), await listingSecretsOf(db, catalogId, name));
    const message = await scrubMcpServerText(db, catalogId, name, said);
    await listingFailed(db, catalogId, name, message, perUser);
    return { added: [], updated: [], unregistered: [], conflicts: [], error: message };
  }
}

async function addNow(db: Db, catalogId: string, config: McpServerConfig, actor: string): Promise<McpSyncResult> {
  await checkNewMcpServer(db, catalogId, config);
  const key = keyOf(catalogId, config.name);
  // A per-person server nobody has connected to yet is added without tools: the first to connect lists them.
  const listing: McpServerListing | { error: unknown } = isPerUser(config)
    ? { error: new Error(nobodyConnectedYet(catalogId, config.name)) }
    : await pool()
        .list(key, config)
        .catch((error: unknown) => ({ error }));
  let result: SourceSyncResult;
  try {
    result = await createMcpServer(db, catalogId, config, actor, process.env, "error" in listing ? [] : toolDrafts(listing));
  } catch (error) {
    // Not stored (its catalog went meanwhile): its process must not outlive it.
    await disconnectMcpServer(catalogId, config.name);
    throw error;
  }
  if (!("error" in listing)) {
    markServerUp(catalogId, config.name);
    await inOrder(key, () => recordMcpHealth(db, catalogId, config.name, connectedHealth(listing, result)));
    return result;
  }
  const message = await scrubMcpServerText(db, catalogId, config.name, listing.error instanceof Error ? listing.error.message : String(listing.error));
  await listingFailed(db, catalogId, config.name, message, isPerUser(config));
  return { ...result, error: message };
}

/**
 * A listing failed: a shared server is down for this instance (markServerDown); a per-person one
 * failed with one person's credential, or nobody has connected yet, which takes its tools from
 * nobody (each call goes on its caller's own connection): it is only the server's health.
 */
async function listingFailed(db: Db, catalogId: string, name: string, message: string, perUser: boolean): Promise<void> {
  if (!perUser) return markServerDown(db, catalogId, name, message);
  await inOrder(keyOf(catalogId, name), () => recordMcpHealth(db, catalogId, name, { status: "error", lastError: message }));
}

/** The registry's drafts of the tools a server listed: what the gateway serves of each besides its definition goes in its meta, pinned with it. */
function toolDrafts(listing: McpServerListing): SourceToolDraft[] {
  return listing.tools.map((tool) => ({
    name: tool.name,
    summary: tool.summary,
    description: tool.description,
    inputSchema: tool.inputSchema,
    tags: tool.tags,
    meta: {
      mcpName: tool.mcpName,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      ...(tool.title ? { title: tool.title } : {}),
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      ...(tool._meta ? { _meta: tool._meta } : {}),
      ...(tool.inputSchemaDialect ? { inputSchemaDialect: tool.inputSchemaDialect } : {}),
    },
  }));
}

/** A connected server's health: what it is and lists, and the tools left out (invalid, or named as another source's) and why. */
function connectedHealth(listing: McpServerListing, result: SourceSyncResult) {
  const problems = [...listing.problems.map((problem) => `${problem.mcpName}: ${problem.message}`), ...result.conflicts.map((conflict) => conflict.message)];
  return {
    status: "connected" as const,
    lastError: problems.length ? `Connected; ${problems.length} tool(s) left out: ${problems.join(" ")}` : null,
    serverInfo: listing.serverInfo ?? null,
    toolCount: listing.tools.length,
  };
}

/** Closes the server's connection and forgets whether this instance could reach it (it is being deleted, or is gone). */
export async function disconnectMcpServer(catalogId: string, name: string): Promise<void> {
  await pool().disconnectWhere((key) => isKeyOfServer(key, catalogId, name));
  await bridgedConnections().closeServers((key) => isKeyOfServer(key, catalogId, name));
  offerGone(catalogId, name);
  unreachable.delete(keyOf(catalogId, name));
  forgetMcpServer(catalogId, name);
}

/**
 * Removes a server and its tools (their audit history stays) and stops its process. The tools go
 * last: a sync that was listing when the server was deleted may still write them meanwhile.
 */
export async function removeMcpServer(db: Db, catalogId: string, name: string, actor: string): Promise<void> {
  await deleteMcpServer(db, catalogId, name, actor);
  await deletePromptApprovals(db, catalogId, name);
  await disconnectMcpServer(catalogId, name);
  await deleteSourceTools(db, catalogId, "mcp", name, actor);
}

/** Deletes a catalog with everything in it, and stops the processes of its MCP servers (and closes their connections). */
export async function removeCatalog(db: Db, catalogId: string): Promise<void> {
  await deleteCatalog(db, catalogId);
  await disconnectWhere((key) => key.startsWith(keyOf(catalogId, "")));
}

/** Closes the connections of the servers `selected` picks (by `catalog/server`), and forgets whether they could be reached. */
async function disconnectWhere(selected: (key: string) => boolean): Promise<void> {
  for (const key of [...unreachable, ...pool().keys()].filter(selected)) {
    unreachable.delete(key);
    const [catalogId, server] = key.split("/");
    offerGone(catalogId, server);
    forgetMcpServer(catalogId, server);
  }
  await closeConnectionsWhere(selected);
}

/** Closes this instance's pooled and bridged connections whose keys are selected. */
async function closeConnectionsWhere(selected: (key: string) => boolean): Promise<void> {
  await pool().disconnectWhere(selected);
  await bridgedConnections().closeServers(selected);
}

/** Closes the person's own connections to the server (their credential changed or is gone). */
export async function disconnectPersonFrom(catalogId: string, server: string, userId: string): Promise<void> {
  const key = personalKey(keyOf(catalogId, server), userId);
  await pool().disconnect(key);
  await bridgedConnections().closeServers((serverKey) => serverKey === key);
}

/** Closes everyone's own connections to the server (not its shared one): its configuration changed. */
export async function disconnectPeopleFrom(catalogId: string, server: string): Promise<void> {
  await closeConnectionsWhere((key) => isKeyOfServer(key, catalogId, server) && key !== keyOf(catalogId, server));
}

/** Closes every MCP connection of this instance (stdio servers exit): the server is shutting down. */
export async function closeMcpConnections(): Promise<void> {
  await Promise.all([state.pool?.disconnectAll(), bridgedConnections().closeAll()]);
}

/**
 * The failures of a call that say the server cannot serve anyone even while its connection stays
 * open (an HTTP server answering 401 or 403 to every request): it is down for this instance until
 * it answers again.
 */
const SERVER_DOWN_FAILURES = new Set<McpSourceError["failure"]>(["connection", "spawn"]);

/**
 * Calls a live MCP tool on the server's connection. A failure that leaves the server without a
 * connection (it could not be started or reached, or it went away), or that says it serves no one
 * (SERVER_DOWN_FAILURES), takes its tools out of this instance at once and records it failing;
 * one call's timeout, cancellation or error leaves the server to its other callers. A server this
 * instance had lost and that answers again is synced, which puts its tools back. A per-person
 * server is called on `principal`'s own connection with their own credential, or answers with a
 * tool error saying where to connect (app/_services/mcp-personal.ts); its failures are theirs alone.
 */
export async function callMcpServerTool(
  db: Db,
  catalogId: string,
  server: string,
  mcpName: string,
  args: Record<string, unknown>,
  options: McpCallOptions & { principal?: Principal } = {},
): Promise<McpToolResult> {
  const stored: McpServerConfig = await getMcpServerConfig(db, catalogId, server);
  const target = await callTargetOf(db, keyOf(catalogId, server), catalogId, stored, options.principal);
  if ("refusal" in target) return target.refusal;
  const { key, config } = target;
  const shared = key === keyOf(catalogId, server);
  try {
    const { caller } = options;
    // A caller that answers the server's requests itself calls over a connection of its own.
    const result = caller
      ? await bridgedConnections().call(key, config, mcpName, args, caller, options)
      : await pool().call(key, config, mcpName, args, options);
    if (shared && unreachable.has(key)) {
      void syncMcpServer(db, catalogId, server)
        .catch(passOverDeleted)
        .catch((error: unknown) => log.warn({ err: error }, `The sync of ${key}, which answered again, failed:`));
    }
    return result;
  } catch (error) {
    // A person whose sign-in was refused (revoked, expired beyond refreshing) is told to connect again; the server is not down.
    if (!shared) return personalFailure(db, catalogId, server, options.principal, error);
    // A wedged server being restarted still has its connection being opened: it is lost only if that fails.
    const connected = options.caller ? bridgedConnections().has(options.caller.client.sessionId, key) : pool().keys().includes(key);
    if (error instanceof McpSourceError && (!connected || SERVER_DOWN_FAILURES.has(error.failure))) {
      await markServerDown(db, catalogId, server, error.message);
    }
    throw error;
  }
}

/** A person's own call failed: when that left them without a usable credential, they read where to connect again; else the failure stands. */
async function personalFailure(db: Db, catalogId: string, server: string, principal: Principal | undefined, error: unknown): Promise<McpToolResult> {
  const config = await getMcpServerConfig(db, catalogId, server);
  const target = await callTargetOf(db, keyOf(catalogId, server), catalogId, config, principal);
  if ("refusal" in target) return target.refusal;
  throw error;
}

/** Sets who hears that a server's resources or prompts changed: one listener, replaced when its module is loaded again. */
export function onMcpOfferChanged(listener: SourcesState["offerChanged"]): void {
  state.offerChanged = listener;
}

/** The server's resources and prompts are gone with its connection: whoever kept them lists them again. */
function offerGone(catalogId: string, server: string): void {
  state.offerChanged?.(catalogId, server, { kind: "resources" });
  state.offerChanged?.(catalogId, server, { kind: "prompts" });
}

/** Whether this instance holds an open connection to the server now. */
export function isMcpServerConnected(catalogId: string, server: string): boolean {
  return state.pool?.isConnected(keyOf(catalogId, server)) ?? false;
}

/** The catalog's servers this instance cannot reach now (lost since their last sync here): their tools are not served from it. */
export function unreachableServersOf(catalogId: string): string[] {
  const prefix = keyOf(catalogId, "");
  return [...unreachable].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
}

/** Whether this instance may serve the server now: not lost since its last sync here. */
export function isMcpServerReachable(catalogId: string, server: string): boolean {
  return !unreachable.has(keyOf(catalogId, server));
}

/** A request other than a tool call on the server's connection (resources, prompts: mcp-federation.ts), connecting first if needed. */
export async function requestMcpServer<T>(
  db: Db,
  catalogId: string,
  server: string,
  kind: "list" | "call",
  label: string,
  signal: AbortSignal | undefined,
  work: McpRequestWork<T>,
): Promise<T> {
  const config = await getMcpServerConfig(db, catalogId, server);
  // Resources and prompts go to every reader of the catalog: no person's credential may fetch them.
  if (isPerUser(config))
    throw new McpSourceError(
      "config",
      server,
      `The MCP server "${server}" takes each person's own credential: its resources and prompts are not served through the gateway.`,
    );
  return pool().request(keyOf(catalogId, server), config, kind, label, signal, work);
}

/**
 * Calls a live MCP tool for a model (the playground's, an MCP gateway client's). The server's own
 * words about a failure (its stderr, an upstream answer) reach only callers with `upstreamDetails`
 * (team admins); everyone else learns that it failed, and how. Each call is a span and counts in
 * the metrics under the catalog's name for the tool (`tool`), with how it ended.
 */
export async function callMcpToolForModel(
  db: Db,
  catalogId: string,
  server: string,
  mcpName: string,
  args: Record<string, unknown>,
  options: { upstreamDetails: boolean; tool: string; principal: Principal | undefined } & McpCallOptions,
): Promise<McpToolResult> {
  const attributes = { "toolshed.catalog": catalogId, "toolshed.mcp_server": server, "toolshed.tool": options.tool };
  return inSpan("mcp tools/call", attributes, async (span) => {
    const started = performance.now();
    const ended = (outcome: ToolCallOutcome) => {
      span.setAttribute("toolshed.outcome", outcome);
      recordToolCall(catalogId, options.tool, outcome, (performance.now() - started) / 1000);
    };
    try {
      const { signal, onProgress, caller, principal } = options;
      const result = await callMcpServerTool(db, catalogId, server, mcpName, args, { signal, onProgress, caller, principal });
      ended(result.isError ? "upstream_error" : "ok");
      return result;
    } catch (error) {
      const failure = callFailure(error, options.signal?.aborted === true);
      ended(failure === "upstream" ? "upstream_error" : failure);
      if (options.upstreamDetails || !(error instanceof McpSourceError)) throw error;
      // Still an McpSourceError, without the details: the gateway's usage figures tell a timeout from other failures by it.
      throw new McpSourceError(error.failure, server, `The MCP server "${server}" failed (${error.failure}); team admins see the details on the Sources page.`);
    }
  });
}

/** At start-up and then periodically: local sources into every catalog, and every MCP server synced. */
export async function syncAllSources(db: Db): Promise<void> {
  await reloadLocalSources();
  for (const catalog of await listCatalogs(db)) await syncLocalSources(db, catalog.id);
  for (const { catalogId, name } of await allMcpServerNames(db)) await syncMcpServer(db, catalogId, name).catch(passOverDeleted);
}

/** A server deleted between listing the servers and syncing it is no failure of the sync. */
function passOverDeleted(error: unknown): void {
  if (!isNotFound(error)) throw error;
}

/** How often each instance runs its periodic MCP round (TOOLSHED_MCP_SYNC_INTERVAL_MS unset). */
export const DEFAULT_MCP_SYNC_INTERVAL_MS = 60_000;
/** The lease of the periodic MCP sync: across the instances sharing the database, its holder syncs every server. */
export const MCP_SYNC_LEASE = "mcp-sync";

/**
 * One periodic round of this instance. While it holds the sync's lease (taken or renewed each
 * round, for a little over `intervalMs`), every server is synced, so across the instances sharing
 * the database each round runs once; the other instances sync only the servers they cannot reach
 * themselves, since that is their own health (see markServerDown). Servers are synced in
 * parallel; one still syncing is skipped until the next round. Never rejects: a server deleted
 * meanwhile is passed over, any other failure is logged. A connection whose server is no longer
 * configured (deleted without `removeCatalog` or `removeMcpServer`, e.g. by another process) is
 * closed, in every instance.
 */
export async function syncMcpServersPeriodically(db: Db, intervalMs = DEFAULT_MCP_SYNC_INTERVAL_MS): Promise<{ synced: string[]; skipped: string[] }> {
  // Orphan candidates, taken before the servers are read: a connection opened later, or one whose
  // addition runs now (it is stored only once listed), belongs to a server the read may miss.
  const connected = pool()
    .keys()
    .filter((key) => !state.syncs?.has(serverKeyOf(key)));
  let servers: { catalogId: string; name: string }[];
  try {
    servers = await allMcpServerNames(db);
  } catch (error) {
    log.warn({ err: error }, "Periodic MCP sync: could not list the servers:");
    return { synced: [], skipped: [] };
  }
  const configured = new Set(servers.map(({ catalogId, name }) => keyOf(catalogId, name)));
  const orphansClosed = disconnectWhere((key) => connected.includes(key) && !configured.has(serverKeyOf(key)));
  const syncsAll = await runsThisRound(db, MCP_SYNC_LEASE, intervalMs);
  const synced: string[] = [];
  const skipped: string[] = [];
  const runs: Promise<unknown>[] = [];
  for (const { catalogId, name } of servers) {
    const key = keyOf(catalogId, name);
    if (!syncsAll && !unreachable.has(key)) continue;
    if (isMcpServerSyncing(catalogId, name)) {
      skipped.push(key);
      continue;
    }
    synced.push(key);
    runs.push(
      syncMcpServer(db, catalogId, name)
        .catch(passOverDeleted)
        .catch((error: unknown) => log.warn({ err: error }, `Periodic MCP sync of ${key} failed:`)),
    );
  }
  await Promise.all([orphansClosed, ...runs]);
  return { synced, skipped };
}

export function startPeriodicSync(db: Db, intervalMs: number): void {
  if (state.periodic || intervalMs <= 0) return;
  const periodic: NonNullable<SourcesState["periodic"]> = {
    db,
    timer: setInterval(() => {
      // A round still running (a slow server, a slow database) is not joined by a second one.
      periodic.round ??= syncMcpServersPeriodically(db, intervalMs).finally(() => {
        periodic.round = undefined;
      });
    }, intervalMs),
  };
  periodic.timer.unref();
  state.periodic = periodic;
}

/**
 * Stops this instance's periodic round and gives up the sync's lease if it holds it: another
 * instance takes it at its next round. A round still running gives it up when it ends, since it may
 * take or renew the lease meanwhile (given up before that, the lease would stay held until it lapsed).
 */
export function stopPeriodicSync(): void {
  const periodic = state.periodic;
  if (!periodic) return;
  clearInterval(periodic.timer);
  state.periodic = undefined;
  void Promise.resolve(periodic.round).then(() => giveUpLease(periodic.db, MCP_SYNC_LEASE));
}
