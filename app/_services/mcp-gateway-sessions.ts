import "server-only";
import { log } from "@/lib/observability/log";
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getDb } from "@/db/client";
import { catalogRevisions } from "@/db/queries/catalogs";
import {
  addGatewayAnswer,
  createGatewaySession,
  deleteGatewaySession,
  deleteGatewaySessionsIdleSince,
  existingGatewaySessions,
  findGatewaySession,
  takeGatewayAnswers,
  touchGatewaySession,
} from "@/db/queries/gateway-sessions";
import type { GatewaySessionRow } from "@/db/schema";
import type { InitializeHello } from "@/lib/gateway/messages";
import { RepeatedFailureLog } from "@/lib/repeated-failure";

/**
 * The MCP gateway's sessions, on any number of instances. The database holds each session
 * (gateway_sessions): who opened it, the turn it serves, its conversation (what ToolSearch found
 * lives there) and the client's initialize. An instance keeps a live MCP server and transport for
 * each session it has served, and restores one from the row when a request of a session it has
 * not seen arrives, so any instance answers any request and no sticky routing is needed.
 *
 * While an instance holds sessions, a loop (every WATCH_INTERVAL_MS) drops those whose row is
 * gone (ended, displaced by their owner's newer ones, catalog deleted) or idle too long, tells
 * their clients when a catalog change altered their tool list (each instance its own clients'
 * streams), and hands on client answers that reached another instance (gateway_answers).
 */

export interface LiveSession<Turn> {
  id: string;
  catalogId: string;
  turn: Turn;
  owner: string;
  conversationId: string;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Requests this instance sent the client (elicitations) that wait for its answer. */
  awaitingAnswers: number;
  /** The catalog revision the session's tool list was last checked at. */
  revision?: number;
  /** The digest of the tool list the client last received or was told had changed. */
  listed?: string;
  /** The digests of its federated resource and prompt lists when a catalog change was last checked for. */
  federationListed?: FederationFingerprints;
}

/** The digests of a session's resource list (templates included) and prompt list. */
export interface FederationFingerprints {
  resources: string;
  prompts: string;
}

export interface SessionHooks<Turn> {
  /** A server with the gateway's handlers, for a session being opened or restored. */
  createServer(session: () => LiveSession<Turn>): Server;
  /** The digest of the session's tool list as it would be listed now. */
  listFingerprint(session: LiveSession<Turn>): Promise<string>;
  /** The digests of the resources and prompts the session's agent may see now. */
  federationFingerprints(session: LiveSession<Turn>): Promise<FederationFingerprints>;
}

const SESSION_IDLE_MS = 30 * 60_000;
const SESSIONS_PER_CALLER = 16;
/** A session's last use is written at most this often: a busy session does not write on every request. */
const TOUCH_EVERY_MS = 60_000;
/** How soon a catalog change reaches the clients' streams, and an answer the instance waiting for it. */
const WATCH_INTERVAL_MS = 500;
/** Where the requests an instance makes to its own transport (restoring a session, handing on an answer) say they go. */
const INTERNAL_URL = "http://toolshed.internal/mcp";

interface Registry {
  live: Map<string, LiveSession<unknown>>;
  restoring: Map<string, Promise<LiveSession<unknown>>>;
  timer?: NodeJS.Timeout;
  watching: boolean;
}

/** A database that stays unreachable fails every watch: one line a minute, not two a second. */
const watchFailures = new RepeatedFailureLog("MCP gateway: watching the sessions");

const shared = globalThis as unknown as { toolshedGatewaySessions?: Registry };

function registry(): Registry {
  shared.toolshedGatewaySessions ??= { live: new Map(), restoring: new Map(), watching: false };
  return shared.toolshedGatewaySessions;
}

export class GatewaySessionStore<Turn> {
  constructor(private readonly hooks: SessionHooks<Turn>) {}

  private get live(): Map<string, LiveSession<Turn>> {
    return registry().live as Map<string, LiveSession<Turn>>;
  }

  /**
   * A session being opened: its transport records it (and its conversation) once the client's
   * initialize has been accepted, before the answer goes back, so every instance knows it by then.
   */
  open(catalogId: string, turn: Turn, owner: string, hello: InitializeHello, startConversation: () => Promise<string>): LiveSession<Turn> {
    let session: LiveSession<Turn>;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: async (id) => {
        const db = getDb();
        const now = new Date();
        await deleteGatewaySessionsIdleSince(db, new Date(now.getTime() - SESSION_IDLE_MS));
        session.id = id;
        session.conversationId = await startConversation();
        const displaced = await createGatewaySession(
          db,
          { id, catalogId, owner, turn: turn as Record<string, unknown>, conversationId: session.conversationId, client: hello, lastUsedAt: now },
          SESSIONS_PER_CALLER,
        );
        for (const old of displaced) this.closeLocal(old);
        await this.remember(session);
      },
      onsessionclosed: (id) => this.end(id),
    });
    session = { id: "", catalogId, turn, owner, conversationId: "", transport, server: undefined as unknown as Server, awaitingAnswers: 0 };
    session.server = this.hooks.createServer(() => session);
    return session;
  }

  /**
   * The session `id` for this caller and catalog, restored here if this instance has not served it
   * yet; undefined when it does not exist, has expired, or is someone else's.
   */
  async find(id: string, catalogId: string, owner: string): Promise<LiveSession<Turn> | undefined> {
    const db = getDb();
    const row = await findGatewaySession(db, id);
    const now = Date.now();
    if (row === undefined || row.lastUsedAt.getTime() < now - SESSION_IDLE_MS) {
      if (row) await deleteGatewaySession(db, id);
      this.closeLocal(id);
      return undefined;
    }
    if (row.owner !== owner || row.catalogId !== catalogId) return undefined;
    if (row.lastUsedAt.getTime() < now - TOUCH_EVERY_MS) await touchGatewaySession(db, id, new Date(now));
    const known = this.live.get(id);
    if (known) return known;
    const restoring = registry().restoring as Map<string, Promise<LiveSession<Turn>>>;
    let pending = restoring.get(id);
    if (!pending) {
      pending = this.restore(row).finally(() => restoring.delete(id));
      restoring.set(id, pending);
    }
    return pending;
  }

  /** Hands a client's answers to the instance waiting for them (this one, or another through the database). */
  async deliverAnswers(session: LiveSession<Turn>, answers: Record<string, unknown>[]): Promise<void> {
    for (const answer of answers) {
      if (session.awaitingAnswers > 0) await this.feed(session, answer);
      else await addGatewayAnswer(getDb(), session.id, answer);
    }
  }

  closeAll(): void {
    for (const id of [...this.live.keys()]) this.closeLocal(id);
  }

  /** Ends the session everywhere: its row goes, and every instance drops its live copy. */
  private async end(id: string): Promise<void> {
    await deleteGatewaySession(getDb(), id);
    this.closeLocal(id);
  }

  /** Stops serving the session here: closes its server and the streams this instance holds. */
  private closeLocal(id: string): void {
    const session = this.live.get(id);
    if (!session) return;
    this.live.delete(id);
    void session.server.close().catch(() => undefined);
    if (this.live.size === 0) this.stopWatching();
  }

  /** Serves the session here from now on, its tool list as it is now the one its client knows. */
  private async remember(session: LiveSession<Turn>): Promise<void> {
    session.revision = (await catalogRevisions(getDb(), [session.catalogId])).get(session.catalogId);
    session.listed = await this.hooks.listFingerprint(session);
    // A server that cannot list now leaves no baseline: the next catalog change tells the client to list again.
    session.federationListed = await this.hooks.federationFingerprints(session).catch(() => undefined);
    this.live.set(session.id, session);
    this.startWatching();
  }

  /**
   * A live copy of a session another instance opened: a server and transport that go through the
   * client's initialize again, as it was recorded, so they know its capabilities and version.
   */
  private async restore(row: GatewaySessionRow): Promise<LiveSession<Turn>> {
    let session: LiveSession<Turn>;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => row.id,
      onsessionclosed: (id) => this.end(id),
    });
    session = {
      id: row.id,
      catalogId: row.catalogId,
      turn: row.turn as Turn,
      owner: row.owner,
      conversationId: row.conversationId,
      transport,
      server: undefined as unknown as Server,
      awaitingAnswers: 0,
    };
    session.server = this.hooks.createServer(() => session);
    await session.server.connect(transport);
    await this.internalPost(session, { jsonrpc: "2.0", id: "restore", method: "initialize", params: row.client }, false);
    await this.internalPost(session, { jsonrpc: "2.0", method: "notifications/initialized" }, true);
    await this.remember(session);
    return session;
  }

  private feed(session: LiveSession<Turn>, message: Record<string, unknown>): Promise<void> {
    return this.internalPost(session, message, true);
  }

  private async internalPost(session: LiveSession<Turn>, message: unknown, withSession: boolean): Promise<void> {
    const response = await session.transport.handleRequest(
      new Request(INTERNAL_URL, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(withSession ? { "mcp-session-id": session.id } : {}),
        },
        body: JSON.stringify(message),
      }),
    );
    await response.text();
  }

  private startWatching(): void {
    const state = registry();
    if (state.timer) return;
    state.timer = setInterval(() => void this.watch(), WATCH_INTERVAL_MS);
    state.timer.unref();
  }

  private stopWatching(): void {
    const state = registry();
    if (state.timer) clearInterval(state.timer);
    state.timer = undefined;
  }

  private async watch(): Promise<void> {
    const state = registry();
    if (state.watching) return;
    state.watching = true;
    try {
      const db = getDb();
      // An idle session stops being served here (its own upstream connections close with it); its next request finds it expired.
      const existing = await existingGatewaySessions(db, [...this.live.keys()], new Date(Date.now() - SESSION_IDLE_MS));
      for (const id of [...this.live.keys()]) if (!existing.has(id)) this.closeLocal(id);
      const waiting = [...this.live.values()].filter((session) => session.awaitingAnswers > 0);
      for (const { sessionId, message } of await takeGatewayAnswers(
        db,
        waiting.map((session) => session.id),
      )) {
        const session = this.live.get(sessionId);
        if (session) await this.feed(session, message);
      }
      await this.announceListChanges();
      const recovered = watchFailures.succeeded();
      if (recovered) log.info(recovered);
    } catch (error) {
      const line = watchFailures.failed(error, Date.now());
      if (line) log.error(line);
    } finally {
      state.watching = false;
    }
  }

  /**
   * Tells each client whose tool, resource or prompt list a catalog change altered (a rule, a
   * permission, a tool disabled, a definition approved). A change of a server's own lists is told
   * as it happens (mcp-gateway-federation.ts).
   */
  private async announceListChanges(): Promise<void> {
    const sessions = [...this.live.values()];
    const revisions = await catalogRevisions(getDb(), [...new Set(sessions.map((session) => session.catalogId))]);
    for (const session of sessions) {
      const revision = revisions.get(session.catalogId);
      if (revision === undefined || revision === session.revision) continue;
      session.revision = revision;
      const listed = await this.hooks.listFingerprint(session).catch(() => undefined);
      if (listed !== undefined && listed !== session.listed) {
        session.listed = listed;
        await session.server.sendToolListChanged().catch(() => undefined);
      }
      await this.announceFederationChanges(session);
    }
  }

  private async announceFederationChanges(session: LiveSession<Turn>): Promise<void> {
    const listed = await this.hooks.federationFingerprints(session).catch(() => undefined);
    if (listed === undefined) return;
    const before = session.federationListed;
    session.federationListed = listed;
    if (listed.resources !== before?.resources) await session.server.sendResourceListChanged().catch(() => undefined);
    if (listed.prompts !== before?.prompts) await session.server.sendPromptListChanged().catch(() => undefined);
  }
}
