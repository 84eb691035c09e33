import "server-only";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { gatewayUri, upstreamOf } from "@/lib/gateway/federation";
import { toolListFingerprint } from "@/lib/gateway/messages";
import { pageOf } from "@/lib/gateway/pages";
import { log } from "@/lib/observability/log";
import type { Caller, GatewaySession, GatewayTurn } from "./mcp-gateway";
import type { FederationFingerprints } from "./mcp-gateway-sessions";
import { FederatedItemNotFound, federatedFor, onFederatedChange, readableResource, subscribeUpstream } from "./mcp-federation";
import { getPromptFor, readResourceFor } from "./mcp-federation-requests";

/**
 * The gateway's resources and prompts (the federation: mcp-federation.ts): the handlers a
 * session's server answers them with, and what its client is told. A change of a server's
 * resources or prompts is announced to every session of its catalog on this instance as the
 * gateway's own list_changed; an update of a resource reaches only the sessions subscribed to it,
 * with its gateway URI. The gateway subscribes to a resource on its server once, while at least
 * one session is subscribed to it. A server restarted meanwhile forgets its subscriptions: a
 * session subscribes again to hear its updates.
 */

/** The capabilities a session's server declares for what this module answers. */
/** How many resources one session may be subscribed to at once. */
const SUBSCRIPTIONS_PER_SESSION = 100;

export const FEDERATION_CAPABILITIES = { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } };

/** Resources, templates or prompts per page of their lists. */
const PAGE_SIZE = 100;

interface Attached {
  server: Server;
  current: () => GatewaySession;
  /** The session's subscriptions, by `catalog/server` and original URI. */
  subscriptions: Set<string>;
}

interface GatewayFederationState {
  /** The sessions served on this instance, by catalog. */
  sessions: Map<string, Set<Attached>>;
  /** Who is subscribed to each resource (by `catalog/server` and its original URI). */
  subscribers: Map<string, Set<Attached>>;
}

const shared = globalThis as unknown as { toolshedGatewayFederation?: GatewayFederationState };
shared.toolshedGatewayFederation ??= { sessions: new Map(), subscribers: new Map() };
const state = shared.toolshedGatewayFederation;

const subscriptionKey = (catalogId: string, server: string, uri: string) => JSON.stringify([catalogId, server, uri]);

onFederatedChange((catalogId, server, change) => {
  if (change.kind === "updated") {
    for (const attached of state.subscribers.get(subscriptionKey(catalogId, server, change.uri)) ?? []) {
      void attached.server.sendResourceUpdated({ uri: gatewayUri(server, change.uri) }).catch(() => undefined);
    }
    return;
  }
  for (const attached of state.sessions.get(catalogId) ?? []) {
    const told = change.kind === "resources" ? attached.server.sendResourceListChanged() : attached.server.sendPromptListChanged();
    void told.catch(() => undefined);
  }
});

function callerOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): Caller {
  const caller = (extra.authInfo?.extra as { caller?: Caller } | undefined)?.caller;
  if (!caller) throw protocolError(ErrorCode.InternalError, "The request carries no caller.");
  return caller;
}

/** A JSON-RPC error the SDK sends as it is: an McpError's message would carry its "MCP error <code>:" prefix to the client, which adds its own. */
const protocolError = (code: number, message: string) => Object.assign(new Error(message), { code, protocol: true });

/** Runs a handler's work, answering an unknown or forbidden item -32602 and an upstream's failure -32603 with what the caller may read of it. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { protocol?: boolean }).protocol) throw error;
    if (error instanceof FederatedItemNotFound) throw protocolError(ErrorCode.InvalidParams, error.message);
    throw protocolError(ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
  }
}

function page<T>(items: T[], cursor: string | undefined): { page: T[]; nextCursor?: string } {
  const paged = pageOf(items, toolListFingerprint(items), cursor, PAGE_SIZE);
  if ("invalid" in paged) throw protocolError(ErrorCode.InvalidParams, paged.invalid);
  return paged;
}

const nextCursorOf = (paged: { nextCursor?: string }) => (paged.nextCursor ? { nextCursor: paged.nextCursor } : {});

/** The digests of the resources and prompts a session of this turn may see now: the session store tells its client when a catalog change alters them. */
export async function federationFingerprints(catalogId: string, turn: GatewayTurn): Promise<FederationFingerprints> {
  const federation = await federatedFor(catalogId, turn);
  return { resources: toolListFingerprint([...federation.resources, ...federation.templates]), prompts: toolListFingerprint(federation.prompts) };
}

/** Answers resources and prompts on a session's server, and tells its client of their changes while it is open. */
export function serveFederation(server: Server, current: () => GatewaySession): void {
  const attached: Attached = { server, current, subscriptions: new Set() };
  const { catalogId } = current();
  const inCatalog = state.sessions.get(catalogId) ?? new Set();
  state.sessions.set(catalogId, inCatalog);
  inCatalog.add(attached);
  // After whatever else the session's server does as it closes (its own upstream connections close too).
  const closing = server.onclose;
  server.onclose = () => {
    closing?.();
    inCatalog.delete(attached);
    for (const key of attached.subscriptions) void unsubscribe(attached, key);
  };
  const federation = () => federatedFor(current().catalogId, current().turn);
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const paged = page((await federation()).resources, request.params?.cursor);
    return { resources: paged.page, ...nextCursorOf(paged) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request) => {
    const paged = page((await federation()).templates, request.params?.cursor);
    return { resourceTemplates: paged.page, ...nextCursorOf(paged) };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    const paged = page((await federation()).prompts, request.params?.cursor);
    return { prompts: paged.page, ...nextCursorOf(paged) };
  });
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    answering(() => readResourceFor(current(), callerOf(extra), request.params.uri, extra.signal)),
  );
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    answering(() => getPromptFor(current(), callerOf(extra), request.params.name, request.params.arguments ?? {}, extra.signal)),
  );
  server.setRequestHandler(SubscribeRequestSchema, (request) =>
    answering(async () => {
      const { catalogId: catalog, turn } = current();
      const { target, offer } = await readableResource(catalog, turn, request.params.uri);
      if (!offer.subscribe)
        throw new FederatedItemNotFound(`Resource not found or not subscribable: ${request.params.uri}`, "its server takes no subscriptions");
      const key = subscriptionKey(catalog, target.server, target.uri);
      // Each one may cost a subscription on its server: a session cannot have its servers watch without end.
      if (!attached.subscriptions.has(key) && attached.subscriptions.size >= SUBSCRIPTIONS_PER_SESSION) {
        throw protocolError(
          ErrorCode.InvalidRequest,
          `A session may be subscribed to at most ${SUBSCRIPTIONS_PER_SESSION} resources: unsubscribe from one first.`,
        );
      }
      const subscribers = state.subscribers.get(key) ?? new Set();
      if (subscribers.size === 0) await subscribeUpstream(catalog, target.server, target.uri, true);
      subscribers.add(attached);
      state.subscribers.set(key, subscribers);
      attached.subscriptions.add(key);
      return {};
    }),
  );
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const target = upstreamOf(request.params.uri);
    if (target) await unsubscribe(attached, subscriptionKey(current().catalogId, target.server, target.uri));
    return {};
  });
}

/** Ends a session's subscription; the server is told once no session is subscribed any more. */
async function unsubscribe(attached: Attached, key: string): Promise<void> {
  attached.subscriptions.delete(key);
  const subscribers = state.subscribers.get(key);
  if (!subscribers?.delete(attached) || subscribers.size > 0) return;
  state.subscribers.delete(key);
  const [catalogId, server, uri] = JSON.parse(key) as [string, string, string];
  await subscribeUpstream(catalogId, server, uri, false).catch((error: unknown) =>
    log.warn({ err: error }, `MCP ${catalogId}/${server}: unsubscribing from ${uri} failed:`),
  );
}
